import { ValidationError } from '../../../errors.js';
import type { Embedder } from '../../../retrieval/embedders/embedder.js';
import { defaultEmbeddingModel } from '../../../retrieval/embedders/offline-models.js';
import { createProviderEmbedder } from '../../../retrieval/embedders/provider-embedder.js';
import type { ModelResolver } from './model-resolution.js';

/** Chooses each Context's embedder: an offline model, or its configured provider model. */
export interface EmbedderResolver {
  /** Checks an `embeddingModel` when a Context is saved. */
  validate(workspaceId: string, reference: string | null | undefined): Promise<void>;
  forContext(workspaceId: string, reference: string | null): Promise<Embedder>;
}

export function createEmbedderResolver(dependencies: {
  models: ModelResolver;
  offline: Embedder[];
}): EmbedderResolver {
  const { models, offline } = dependencies;
  const offlineByModel = new Map(offline.map((embedder) => [embedder.model, embedder]));
  return {
    async validate(workspaceId, reference) {
      if (!reference || offlineByModel.has(reference)) return;
      if (reference.startsWith('offline/')) {
        const names = [...offlineByModel.keys()].map((model) => `"${model}"`).join(' or ');
        throw new ValidationError('embeddingModel', `an offline model is ${names}`);
      }
      await models.resolveEmbedding(workspaceId, reference);
    },

    async forContext(workspaceId, reference) {
      const offlineEmbedder = offlineByModel.get(reference ?? defaultEmbeddingModel);
      if (offlineEmbedder) return offlineEmbedder;
      const resolved = await models.resolveEmbedding(workspaceId, reference!);
      return createProviderEmbedder(reference!, resolved.kind, resolved.embeddingModel);
    },
  };
}
