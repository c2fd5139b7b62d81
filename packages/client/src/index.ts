export type { Routes, Schemas } from './api/api-types.js';
export type { Answer, Body, CallOptions, RequestOptions, Route } from './api/typed-request.js';
/** The Klu-compatible entry as one object, for `@lectern/client/klu` in CommonJS (dist/klu.cjs). */
export * as kluModule from './klu/index.js';
export { Klu } from './klu/index.js';
export {
  Lectern,
  type RunInput,
  type RunOptions,
  type RunResult,
  type StreamingRun,
  type SyncRunAnswer,
} from './lectern.js';
export type { GenerationLogOptions, GenerationRecord } from './prompts/generation-log.js';
export {
  type DeployedPromptRecord,
  Prompt,
  type PromptMessage,
  type PromptSnapshot,
  type RenderedPrompt,
  type RenderOptions,
} from './prompts/prompt.js';
export {
  PromptCache,
  type PromptCacheOptions,
  type RenderSpan,
  type RenderTracer,
} from './prompts/prompt-cache.js';
export { type ServerSentEvent, ServerSentEventParser } from './streams/sse-parser.js';
export * from './transport/errors.js';
export type { ClientOptions } from './transport/options.js';
