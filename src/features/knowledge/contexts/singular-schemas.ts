import { z } from 'zod';
import { guid } from '../../../core/guid.js';
import { metadataFilter } from '../../../core/metadata-filter.js';
import { sourceUrl } from '../context-sources/index.js';
import { contextPromptBody, createContextBody } from './schemas.js';

// Bodies of the singular `/v1/context` routes the official SDK calls (docs/sdk-compatibility.md): the current
// fields plus the SDK's names for them.

const unsupported = (what: string) =>
  z
    .never({ error: `${what}: Lectern chooses how to load a file from its type` })
    .optional()
    .describe('Refused: Lectern has no Context types or loaders to choose');

/** `contexts.create`: `files` (URLs from `presign` or file upload) become Context Sources. */
export const sdkCreateContextBody = createContextBody.extend({
  description: createContextBody.shape.description.default(''),
  files: z.array(sourceUrl).max(100).optional(),
  type: unsupported('type'),
  loader: unsupported('loader'),
  filter: unsupported('filter'),
});

export const presignBody = z.strictObject({ file_name: z.string().trim().min(1).max(500) });

export const embedContextBody = z.strictObject({ guid });

const documentMetadata = z.record(z.string(), z.unknown());

/** `contexts.addDoc`: `meta_data` is the SDK's name for `metadata`. */
export const sdkAddDocumentBody = z
  .strictObject({
    content: z.string().max(5_000_000).optional(),
    text: z.string().max(5_000_000).optional(),
    filter: z.string().max(1000).nullable().optional(),
    metadata: documentMetadata.nullable().optional(),
    meta_data: documentMetadata.nullable().optional(),
  })
  .refine((body) => body.content !== undefined || body.text !== undefined, {
    path: ['content'],
    message: 'content (or text) is required',
  });

/**
 * `contexts.updateDoc` sends the Document as it read it (its `guid`, `embedding`, `score`) with the
 * changes: content (kept when absent) and `meta_data`. What Lectern computes is not taken from it.
 */
export const sdkUpdateDocumentBody = z.strictObject({
  content: z.string().max(5_000_000).optional(),
  metadata: documentMetadata.optional(),
  meta_data: documentMetadata.optional(),
  guid: guid.optional(),
  id: z.unknown().optional(),
  embedding: z.array(z.number()).optional().describe('Ignored: Lectern embeds the content itself'),
  score: z.number().optional().describe('Ignored: a search result’s score'),
  filter: z.string().max(1000).nullable().optional().describe('Ignored: set when the Document is added'),
});

/** `contexts.prompt`: the Context in the body; the SDK's default response mode `search` answers as `compact`. */
export const sdkContextPromptBody = contextPromptBody.extend({
  context: guid,
  responseMode: z
    .union([contextPromptBody.shape.responseMode.unwrap(), z.literal('search')])
    .optional()
    .transform((mode) => (mode === 'search' ? undefined : mode)),
  metadataFilter: metadataFilter.optional(),
});
