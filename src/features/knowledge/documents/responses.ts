import { z } from 'zod';
import { guid, jsonObject, timestamp } from '../../../core/wire.js';

export const documentResponse = z
  .strictObject({
    guid,
    created_at: timestamp,
    updated_at: timestamp,
    content: z.string(),
    filter: z.string().nullable(),
    metadata: jsonObject,
    meta_data: jsonObject.describe('The official SDK’s name for `metadata`'),
    embedding: z.array(z.number()).describe('Always empty: vectors are not returned'),
    embedding_status: z.enum(['pending', 'embedded', 'failed']),
  })
  .meta({ id: 'Document' });

/** The answer to an add: the GUIDs of the Documents the content was split into. */
export const addedDocumentsResponse = z.strictObject({ docs: z.array(guid), status: z.literal('success') });

export type DocumentResponse = z.output<typeof documentResponse>;
export type AddedDocumentsResponse = z.output<typeof addedDocumentsResponse>;
