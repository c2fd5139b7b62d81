import { offlineEmbeddingModel } from '../../retrieval/embedders/offline-embedder.js';
import type { ContextWithState } from './repository.js';

/** A Context as the API answers it, with its creation inputs and embedding model. */
export function presentContext(row: ContextWithState) {
  return {
    guid: row.id,
    name: row.name,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    createdById: row.createdById,
    processed: row.processed,
    metadata: row.metadata ?? null,
    responseLength: row.responseLength,
    splitterConfig: row.splitterConfig,
    embeddingModel: row.embeddingModel ?? offlineEmbeddingModel,
  };
}
