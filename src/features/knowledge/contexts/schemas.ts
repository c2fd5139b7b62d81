import { z } from 'zod';
import { metadataFilter } from '../../../core/metadata-filter.js';
import { searchModes, splitterNames } from '../../../core/wire-values.js';
import { defaultSplitterConfig } from '../../../retrieval/splitters.js';

const maximumChunkSize = 100_000;

/** docs/api.md#how-the-parts-behave: sizes count tokens for `token`, characters otherwise; the overlap is smaller than a chunk. */
export const splitterConfig = z
  .strictObject({
    chunkSize: z.int().min(16).max(maximumChunkSize).default(defaultSplitterConfig.chunkSize),
    chunkOverlap: z.int().min(0).max(maximumChunkSize).default(defaultSplitterConfig.chunkOverlap),
    splitter: z.enum(splitterNames).default(defaultSplitterConfig.splitter),
  })
  .refine((config) => config.chunkOverlap < config.chunkSize, {
    path: ['chunkOverlap'],
    message: 'must be smaller than chunkSize',
  })
  .describe(
    `Defaults: splitter "${defaultSplitterConfig.splitter}", chunkSize ${defaultSplitterConfig.chunkSize}, chunkOverlap ${defaultSplitterConfig.chunkOverlap}.`,
  );

const embeddingModel = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .describe(
    'Embedding model: "offline/universal-sentence-encoder-lite" (the default, no network) or "<provider>/<model>" of a configured provider (openai, google, mistral, openai-compatible). Changing it re-embeds every Document.',
  );

const name = z.string().trim().min(1).max(500);
const description = z.string().max(10_000);
const responseLength = z.int().min(1).max(100_000);

/** docs/api.md#how-the-parts-behave: exactly these fields; legacy `type`, `loaderId`, `files`, `meta_data` are refused. */
export const createContextBody = z.strictObject({
  name,
  description,
  responseLength: responseLength.optional(),
  splitterConfig: splitterConfig.optional(),
  embeddingModel: embeddingModel.optional(),
});

export const updateContextBody = z.strictObject({
  name: name.optional(),
  description: description.optional(),
  responseLength: responseLength.nullable().optional(),
  splitterConfig: splitterConfig.optional(),
  embeddingModel: embeddingModel.nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});

export const defaultNumberOfResults = 5;

/** Body of POST /v1/contexts/{guid}/search, plus the legacy names of docs/sdk-compatibility.md. */
export const searchBody = z.strictObject({
  prompt: z.string().max(20_000),
  number_of_results: z.int().min(1).max(100).optional().describe(`Default ${defaultNumberOfResults}.`),
  score: z.number().min(0).max(1).optional().describe('Minimum score in [0, 1]; default 0 (every match).'),
  metadata_filter: metadataFilter.optional(),
  mode: z
    .enum(searchModes)
    .optional()
    .describe('Ranking: hybrid (default; BM25 and cosine similarity fused), lexical only, or vector only.'),
  // Legacy names (docs/sdk-compatibility.md).
  similarity_score: z.number().min(0).max(1).optional(),
  filter: z.string().max(1000).optional(),
  metadata: metadataFilter.optional(),
});

export const responseModes = ['compact', 'refine', 'tree_summarize', 'simple_summarize', 'no_text'] as const;

export const contextPromptBody = z.strictObject({
  prompt: z.string().min(1).max(20_000),
  responseMode: z
    .enum(responseModes)
    .optional()
    .describe(
      'compact (default): as many chunks as fit per call, answer refined across calls; refine: one call per chunk, each refining the answer; tree_summarize: answer per group of chunks, then summarise the answers; simple_summarize: one call with the chunks truncated to fit; no_text: retrieve only, text is empty.',
    ),
  responseLength: responseLength.optional().describe('Maximum answer tokens; default the Context’s.'),
  similarityTopK: z.int().min(1).max(50).optional().describe('Chunks retrieved; default 4.'),
  metadataFilter: metadataFilter.optional(),
});

export type CreateContextInput = z.infer<typeof createContextBody>;
export type UpdateContextInput = z.infer<typeof updateContextBody>;
export type SearchInput = z.infer<typeof searchBody>;
export type ContextPromptInput = z.infer<typeof contextPromptBody>;
