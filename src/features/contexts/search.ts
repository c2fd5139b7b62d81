import type { MetadataFilter } from '../../core/metadata-filter.js';
import { createReadCache } from '../../platform/read-cache.js';
import { rank } from '../../retrieval/hybrid-ranking.js';
import type { SearchMode } from '../../retrieval/hybrid-search.js';
import type { DocumentSearchRepository } from '../documents/index.js';
import type { EmbedderResolver } from './embedders.js';
import type { ContextRow } from './repository.js';
import { defaultNumberOfResults } from './schemas.js';

export type SearchRequest = {
  text: string;
  limit?: number;
  threshold?: number;
  metadata?: MetadataFilter;
  legacyFilter?: string | null;
  mode?: SearchMode;
};

export type SearchHit = Awaited<ReturnType<ReturnType<typeof createContextSearch>['searchContext']>>[number];

/** Candidates per ranking before fusion: enough that fusion can reorder, few enough to stay fast. */
const candidatesFor = (limit: number) => Math.max(50, limit * 4);

/** A search hit as the API answers it. */
export function presentHit(hit: SearchHit) {
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
    embedding: [] as number[],
  };
}

export function createContextSearch(dependencies: {
  documents: Pick<DocumentSearchRepository, 'candidates'>;
  embedders: EmbedderResolver;
}) {
  const { documents, embedders } = dependencies;
  // Applications repeat questions; a repeated query skips the embedder (~15 ms offline, a round trip otherwise).
  const queryVectors = createReadCache<Float32Array | undefined>({ ttlMs: 10 * 60_000, maxEntries: 2_000 });

  async function queryVector(workspaceId: string, context: ContextRow, text: string) {
    const embedder = await embedders.forContext(workspaceId, context.embeddingModel);
    return queryVectors.get(`${workspaceId}:${embedder.model}:${text}`, async () => {
      const [vector] = await embedder.embed([text], 'query');
      return vector;
    });
  }

  async function searchContext(workspaceId: string, context: ContextRow, request: SearchRequest) {
    const mode = request.mode ?? 'hybrid';
    const limit = request.limit ?? defaultNumberOfResults;
    const vector =
      mode === 'lexical' || request.text.trim() === ''
        ? undefined
        : await queryVector(workspaceId, context, request.text);
    const candidates = await documents.candidates({
      contextId: context.id,
      text: request.text,
      vector,
      filter: { metadata: request.metadata, legacyFilter: request.legacyFilter },
      candidates: candidatesFor(limit),
      lexicalCandidates: mode !== 'vector',
    });
    return rank(candidates, mode, limit, request.threshold ?? 0);
  }

  return {
    searchContext,

    /** The best chunks over several Contexts (an Action's), best first. */
    async searchContexts(workspaceId: string, contexts: ContextRow[], request: SearchRequest) {
      const limit = request.limit ?? defaultNumberOfResults;
      const perContext = await Promise.all(
        contexts.map((context) => searchContext(workspaceId, context, request)),
      );
      return perContext
        .flat()
        .sort((left, right) => right.score - left.score)
        .slice(0, limit);
    },
  };
}

export type ContextSearch = ReturnType<typeof createContextSearch>;
