import type { MetadataFilter } from '../../../core/metadata-filter.js';
import type { ContextRow } from './repository.js';
import type { ContextSearch, SearchRequest } from './search.js';

/** Finds the workspace's Contexts among GUIDs (unknown ones left out). */
type ContextLookup = { findMany(workspaceId: string, ids: string[]): Promise<ContextRow[]> };

/**
 * The texts of the best chunks of the workspace's Contexts among `contextIds` (unknown or deleted
 * ones left out), and how many of those Contexts were found: what a run and a `context_search`
 * Skill both retrieve.
 */
export type ContextTexts = (
  workspaceId: string,
  contextIds: string[],
  request: SearchRequest,
) => Promise<{ found: number; texts: string[] }>;

export function createContextTexts(dependencies: {
  contexts: ContextLookup;
  search: Pick<ContextSearch, 'searchContexts'>;
}): ContextTexts {
  const { contexts, search } = dependencies;
  return async (workspaceId, contextIds, request) => {
    const found = await contexts.findMany(workspaceId, contextIds);
    const hits = await search.searchContexts(workspaceId, found, request);
    return { found: found.length, texts: hits.map((hit) => hit.content) };
  };
}

/**
 * What a run retrieves (DESIGN: an Action's attached Contexts): the chunks of those Contexts that best
 * answer the run's input, within its metadata filters.
 */
export function createContextRetriever(dependencies: { contextTexts: ContextTexts }) {
  const { contextTexts } = dependencies;
  return async (query: {
    workspaceId: string;
    contextIds: string[];
    text: string;
    metadataFilter?: MetadataFilter;
    legacyFilter?: string | null;
  }): Promise<string[]> => {
    const request = { text: query.text, metadata: query.metadataFilter, legacyFilter: query.legacyFilter };
    return (await contextTexts(query.workspaceId, query.contextIds, request)).texts;
  };
}
