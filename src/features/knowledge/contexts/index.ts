export { type ContextPrompt, createContextPrompt } from './context-prompt.js';
export { presentContext, presentHit } from './presenters.js';
export { type ContextRepository, createContextRepository } from './repository.js';
export { type ContextTexts, createContextRetriever, createContextTexts } from './retriever.js';
export { splitterConfig } from './schemas.js';
export { type ContextSearch, createContextSearch, type SearchHit } from './search.js';
export {
  type Context,
  type ContextService,
  type ContextWithState,
  contextRequirer,
  createContextService,
} from './service.js';
