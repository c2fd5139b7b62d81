import type { MetadataFilter } from '../../core/metadata-filter.js';
import type { ContextRow } from './repository.js';
import type { ContextSearch } from './search.js';

/** Finds the workspace's Contexts among GUIDs (unknown ones left out). */
type ContextLookup = { findMany(workspaceId: string, ids: string[]): Promise<ContextRow[]> };

/**
 * What a run retrieves (DESIGN: an Action's attached Contexts): the chunks of those Contexts that best
 * answer the run's input, within its metadata filters.
 */
export function createContextRetriever(
  contexts: ContextLookup,
  search: Pick<ContextSearch, 'searchContexts'>,
) {
  return async (query: {
    workspaceId: string;
    contextIds: string[];
    text: string;
    metadataFilter?: MetadataFilter;
    legacyFilter?: string | null;
  }): Promise<string[]> => {
    const found = await contexts.findMany(query.workspaceId, query.contextIds);
    const hits = await search.searchContexts(query.workspaceId, found, {
      text: query.text,
      metadata: query.metadataFilter,
      legacyFilter: query.legacyFilter,
    });
    return hits.map((hit) => hit.content);
  };
}
