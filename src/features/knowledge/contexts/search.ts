import type { MetadataFilter } from '../../../core/metadata-filter.js';
import { createReadCache } from '../../../platform/read-cache.js';
import type { Embedder } from '../../../retrieval/embedders/embedder.js';
import { type RankedCandidate, rank } from '../../../retrieval/hybrid-ranking.js';
import type { SearchMode } from '../../../retrieval/hybrid-search.js';
import type { EmbedderResolver } from '../../models/providers/index.js';
import type { DocumentSearchRepository } from '../documents/index.js';
import { defaultNumberOfResults } from './schemas.js';
import type { Context } from './service.js';

export type SearchRequest = {
  text: string;
  limit?: number;
  threshold?: number;
  metadata?: MetadataFilter;
  legacyFilter?: string | null;
  mode?: SearchMode;
};

/** A Document chunk found by a search, with its score in [0, 1]. */
export type SearchHit = RankedCandidate;

/** Candidates per ranking before fusion: enough that fusion can reorder, few enough to stay fast. */
const candidatesFor = (limit: number) => Math.max(50, limit * 4);

export interface ContextSearch {
  /** The best chunks of one Context for a query, best first, each with its fused score. */
  searchContext(workspaceId: string, context: Context, request: SearchRequest): Promise<SearchHit[]>;
  /** The best chunks over several Contexts (an Action's), best first. */
  searchContexts(workspaceId: string, contexts: Context[], request: SearchRequest): Promise<SearchHit[]>;
}

export function createContextSearch(dependencies: {
  documents: Pick<DocumentSearchRepository, 'candidates'>;
  embedders: EmbedderResolver;
}): ContextSearch {
  const { documents, embedders } = dependencies;
  // Applications repeat questions; a repeated query skips the embedder (~15 ms offline, a round trip otherwise).
  const queryVectors = createReadCache<Float32Array | undefined>({ ttlMs: 10 * 60_000, maxEntries: 2_000 });

  async function queryVector(workspaceId: string, embedder: Embedder, text: string) {
    return queryVectors.get(`${workspaceId}:${embedder.model}:${text}`, async () => {
      const [vector] = await embedder.embed([text], 'query');
      return vector;
    });
  }

  async function searchContext(workspaceId: string, context: Context, request: SearchRequest) {
    const mode = request.mode ?? 'hybrid';
    const limit = request.limit ?? defaultNumberOfResults;
    const embedder =
      mode === 'lexical' ? undefined : await embedders.forContext(workspaceId, context.embeddingModel);
    const vector =
      embedder === undefined || request.text.trim() === ''
        ? undefined
        : await queryVector(workspaceId, embedder, request.text);
    const candidates = await documents.candidates({
      contextId: context.id,
      text: request.text,
      vector,
      filter: { metadata: request.metadata, legacyFilter: request.legacyFilter },
      candidates: candidatesFor(limit),
      lexicalCandidates: mode !== 'vector',
    });
    return rank(candidates, mode, limit, request.threshold ?? 0, embedder?.fusion);
  }

  return {
    searchContext,

    async searchContexts(workspaceId, contexts, request) {
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
