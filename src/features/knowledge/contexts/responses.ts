import { z } from 'zod';
import { guid, jsonObject, timestamp } from '../../../core/wire.js';
import { splitterNames } from '../../../core/wire-values.js';

// A Context's own fields are camelCase on the wire, as the hosted original wrote them (docs/api.md).

export const contextResponse = z
  .strictObject({
    guid,
    name: z.string(),
    description: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
    createdById: z.string(),
    processed: z.boolean().describe('Whether every Document is indexed and embedded'),
    metadata: jsonObject.nullable(),
    responseLength: z.number().int().nullable(),
    splitterConfig: z.strictObject({
      chunkSize: z.number().int(),
      chunkOverlap: z.number().int(),
      splitter: z.enum(splitterNames),
    }),
    embeddingModel: z.string(),
  })
  .meta({ id: 'Context' });

export const searchHitResponse = z
  .strictObject({
    guid,
    content: z.string(),
    score: z.number(),
    created_at: timestamp,
    updated_at: timestamp,
    filter: z.string().nullable(),
    metadata: jsonObject,
    meta_data: jsonObject.describe('The official SDK’s name for `metadata`'),
    embedding: z.array(z.number()).describe('Always empty: vectors are not returned'),
  })
  .meta({ id: 'SearchHit' });

export const contextPromptResponse = z.strictObject({ text: z.string(), nodes: z.array(searchHitResponse) });

/** The legacy search route's answer: the hits under `data`. */
export const legacySearchResponse = z.strictObject({ data: z.array(searchHitResponse) });

/** `POST /v1/context/{guid}/status` (the official SDK's `contexts.getStatus`). */
export const contextStatusResponse = z.strictObject({
  status: z.enum(['SUCCESS', 'PENDING']),
  processed: z.boolean(),
});

/** `POST /v1/context/{guid}/add_files`: the Context and the Context Sources made. */
export const contextWithFilesResponse = contextResponse.extend({ created: z.array(guid) });

/** `POST /v1/context/prompt`: the answer also under `msg`, the official SDK's name for it. */
export const sdkContextPromptResponse = contextPromptResponse.extend({ msg: z.string() });

export type ContextResponse = z.output<typeof contextResponse>;
export type SearchHitResponse = z.output<typeof searchHitResponse>;
export type ContextPromptResponse = z.output<typeof contextPromptResponse>;
