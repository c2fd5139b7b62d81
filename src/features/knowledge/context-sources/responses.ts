import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';
import { splitterNames } from '../../../core/wire-values.js';

export const contextSourceResponse = z
  .strictObject({
    guid,
    name: z.string(),
    url: z.string(),
    context: guid,
    loader_id: z.string(),
    loader_config: z.array(
      z.strictObject({ name: z.string(), value: z.unknown(), required: z.boolean().optional() }),
    ),
    splitter_config: z.strictObject({
      chunkSize: z.number().int(),
      chunkOverlap: z.number().int(),
      splitter: z.enum(splitterNames),
    }),
    indexing_status: z.enum(['PENDING', 'PROCESSING', 'INDEXED', 'FAILED']),
    indexed_at: timestamp.nullable(),
    indexing_metadata: z
      .strictObject({ documents: z.number().int(), chunks: z.number().int(), error: z.string().optional() })
      .nullable(),
    created_by_id: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'ContextSource' });

/** `add_files`: the Context Sources made, one per file URL. */
export const addedFilesResponse = z.strictObject({ created: z.array(guid) });

export type ContextSourceResponse = z.output<typeof contextSourceResponse>;
