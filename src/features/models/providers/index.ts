export { createEmbedderResolver, type EmbedderResolver } from './embedders.js';
export {
  type CredentialOwner,
  createModelResolver,
  type ModelPurpose,
  type ModelResolver,
  type ResolvedEmbeddingModel,
  type ResolvedModel,
} from './model-resolution.js';
export { presentModel, presentProvider } from './presenters.js';
export { createProviderRepository } from './repository.js';
export {
  createProviderService,
  type Provider,
  type ProviderModel,
  type ProviderService,
} from './service.js';
