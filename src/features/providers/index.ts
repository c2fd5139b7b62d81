export {
  type CredentialOwner,
  createModelResolver,
  type ModelResolver,
  type ResolvedEmbeddingModel,
  type ResolvedModel,
} from './model-resolution.js';
export { createProviderRepository } from './repository.js';
export { createProviderService, type ProviderService } from './service.js';
