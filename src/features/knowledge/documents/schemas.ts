import { z } from 'zod';
import { guid } from '../../../core/guid.js';
import { paginationQuery } from '../../../core/pagination.js';

const maximumContentLength = 5_000_000;
const content = z.string().max(maximumContentLength);
const metadata = z.record(z.string(), z.unknown());

/** docs/api.md#how-the-parts-behave: `content` or its alias `text`; an empty content is accepted (and finds nothing). */
export const addDocumentBody = z
  .strictObject({
    content: content.optional(),
    text: content.optional(),
    filter: z.string().max(1000).nullable().optional(),
    metadata: metadata.nullable().optional(),
  })
  .refine((body) => body.content !== undefined || body.text !== undefined, {
    path: ['content'],
    message: 'content (or text) is required',
  });

export const updateDocumentBody = z.strictObject({
  content,
  metadata: metadata.optional(),
});

export const deleteDocumentsBody = z.strictObject({ filter: z.string().max(1000).optional() }).nullish();

export const documentListQuery = paginationQuery.extend({ query: z.string().max(1000).optional() });

export const contextParams = z.object({ contextGuid: guid });
export const documentParams = z.object({ contextGuid: guid, guid });

export type AddDocumentInput = z.infer<typeof addDocumentBody>;
export type UpdateDocumentInput = z.infer<typeof updateDocumentBody>;
