import { ValidationError } from '../../errors.js';
import type { Embedder } from '../../retrieval/embedders/embedder.js';
import { offlineEmbeddingModel } from '../../retrieval/embedders/offline-embedder.js';
import { createProviderEmbedder } from '../../retrieval/embedders/provider-embedder.js';
import type { ModelResolver } from '../providers/index.js';

/** Chooses each Context's embedder: the offline default, or its configured provider model. */
export interface EmbedderResolver {
  /** Checks an `embeddingModel` when a Context is saved. */
  validate(workspaceId: string, reference: string | null | undefined): Promise<void>;
  forContext(workspaceId: string, reference: string | null): Promise<Embedder>;
}

export function createEmbedderResolver(models: ModelResolver, offline: Embedder): EmbedderResolver {
  return {
    async validate(workspaceId, reference) {
      if (!reference || reference === offlineEmbeddingModel) return;
      if (reference.startsWith('offline/')) {
        throw new ValidationError(`the only offline model is "${offlineEmbeddingModel}"`, 'embeddingModel');
      }
      await models.resolveEmbedding(workspaceId, reference);
    },

    async forContext(workspaceId, reference) {
      if (!reference || reference === offlineEmbeddingModel) return offline;
      const resolved = await models.resolveEmbedding(workspaceId, reference);
      return createProviderEmbedder(reference, resolved.kind, resolved.embeddingModel);
    },
  };
}
