export { createAsyncRunRepository } from './async-run-repository.js';
export { callerOf } from './caller.js';
export {
  createDurableRuns,
  type DurableGeneration,
  type DurableRuns,
  type RunFailure,
} from './durable-runs.js';
export { createRunEngine, type Retriever, type RunCaller, type RunEngine } from './engine.js';
export { createIdempotentRequests, type IdempotentRequests } from './idempotency.js';
export { createIdempotentRequestRepository } from './idempotent-request-repository.js';
export { type RunInput, type RunMode, runInputFromWire, runModeOf } from './run-input.js';
export { presentRunResult } from './run-result.js';
export { idempotencyHeaders, type PromptInput, promptInput, runFields } from './schemas.js';
export {
  type AsyncRunResponse,
  asyncRunJob,
  createRunService,
  type RunResponse,
  type RunService,
  type StreamRunResponse,
  type SyncRunResponse,
} from './service.js';
export { createActionRunner } from './skill-runner.js';
