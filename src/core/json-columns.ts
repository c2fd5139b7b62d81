import type { SplitterName } from './wire-values.js';

/**
 * The shapes stored in JSON columns. Domain code, the model layer and the table schema all share
 * them, so they live here rather than in the schema: code that only needs a message's shape should
 * not depend on the tables.
 */

export type WorkspaceSettings = {
  /** Whether run requests may override provider and model (`modelOptions`). Default true. */
  allowModelOverrides?: boolean;
  /** Requests a minute each API key of the workspace may make; absent: the instance's default; 0: no limit. */
  requestsPerMinute?: number | null;
};

export type TemplateMessage = { role: 'system' | 'user' | 'assistant'; content: string };

export type ToolDefinition = { name: string; description?: string; parameters?: Record<string, unknown> };

export type ModelConfig = {
  temperature?: number;
  top_p?: number;
  max_response_length?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  stop?: string[];
  seed?: number;
  response_format?: 'text' | 'json_object' | 'json_schema';
  json_schema?: Record<string, unknown>;
  num_retries?: number;
  timeout?: number;
};

export type MessagePart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } }
  | { type: 'file'; file: { file_data?: string; file_id?: string; filename?: string } }
  | { type: 'refusal'; refusal: string };

/** A message as the API writes it (requests, `full_prompt_sent`, stored history). */
export type PromptMessage = { role: string; content: string | MessagePart[] };

export type GenerationCost = { input: number; output: number; generation: number };

/** An event of a span as stored: its time in nanoseconds since the epoch, as text (JSON has no 64-bit integers). */
export type SpanEvent = { name: string; timeUnixNano: string; attributes: Record<string, unknown> };

export type { SplitterName };

/** How a Context cuts text into Documents; sizes count tokens for `token`, characters otherwise. */
export type SplitterConfig = { chunkSize: number; chunkOverlap: number; splitter: SplitterName };

export type IndexingStatus = 'PENDING' | 'PROCESSING' | 'INDEXED' | 'FAILED';

export type IndexingMetadata = { documents: number; chunks: number; error?: string };

export type LoaderConfigItem = { name: string; value: unknown; required?: boolean };

export type EmbeddingStatus = 'pending' | 'embedded' | 'failed';

/** One entry of a Skill's configuration: every definition of its type, defaults filled. */
export type SkillMetadataEntry = { name: string; required: boolean; value: unknown; type: string };

export type WorkflowBlockType = 'action' | 'output';

export type WorkflowRunStatus = 'running' | 'succeeded' | 'failed';

export type WorkflowRunBlockStatus = 'pending' | 'succeeded' | 'failed' | 'skipped';

/** The snippet versions an Action version includes, by the name its templates use. */
export type SnippetPins = Record<string, { guid: string; version: number }>;

/** An Action version's templates with their includes replaced by the pinned snippets' text. */
export type ResolvedTemplates = {
  prompt: string | null;
  messages: TemplateMessage[] | null;
  systemMessage: string | null;
};
