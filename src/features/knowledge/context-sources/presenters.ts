import type { ContextSourceResponse } from './responses.js';
import type { ContextSource } from './service.js';

/** A Context Source as the API answers it. */
export function presentContextSource(source: ContextSource): ContextSourceResponse {
  return {
    guid: source.id,
    name: source.name,
    url: source.url,
    context: source.contextId,
    loader_id: source.loaderId,
    loader_config: source.loaderConfig,
    splitter_config: source.splitterConfig,
    indexing_status: source.indexingStatus,
    indexed_at: source.indexedAt?.toISOString() ?? null,
    indexing_metadata: source.indexingMetadata,
    created_by_id: source.createdById,
    created_at: source.createdAt.toISOString(),
    updated_at: source.updatedAt.toISOString(),
  };
}
