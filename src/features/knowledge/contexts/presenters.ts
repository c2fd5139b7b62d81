import { defaultEmbeddingModel } from '../../../retrieval/embedders/offline-models.js';
import type { ContextPromptAnswer } from './context-prompt.js';
import type { ContextPromptResponse, ContextResponse, SearchHitResponse } from './responses.js';
import type { SearchHit } from './search.js';
import type { ContextWithState } from './service.js';

/** A Context as the API answers it, with its creation inputs and embedding model. */
export function presentContext(row: ContextWithState): ContextResponse {
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
    embeddingModel: row.embeddingModel ?? defaultEmbeddingModel,
  };
}

/** A search hit as the API answers it. */
export function presentHit(hit: SearchHit): SearchHitResponse {
  return {
    guid: hit.id,
    content: hit.content,
    score: hit.score,
    created_at: hit.createdAt.toISOString(),
    updated_at: hit.updatedAt.toISOString(),
    filter: hit.filter,
    metadata: hit.metadata,
    // The official SDK reads metadata under this name (docs/sdk-compatibility.md).
    meta_data: hit.metadata,
    embedding: [],
  };
}

export function presentContextPromptAnswer(answer: ContextPromptAnswer): ContextPromptResponse {
  return { text: answer.text, nodes: answer.hits.map(presentHit) };
}
