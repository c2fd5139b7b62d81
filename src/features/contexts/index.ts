export { createContextPrompt } from './context-prompt.js';
export { createEmbedderResolver, type EmbedderResolver } from './embedders.js';
export { presentContext } from './presenters.js';
export { type ContextRepository, type ContextRow as Context, createContextRepository } from './repository.js';
export { createContextRetriever } from './retriever.js';
export { splitterConfig } from './schemas.js';
export { type ContextSearch, createContextSearch } from './search.js';
export { type ContextService, contextRequirer, createContextService } from './service.js';
