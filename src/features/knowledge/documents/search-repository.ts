import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../../platform/database/connection.js';
import {
  type CandidateRow,
  candidatesStatement,
  type HybridSearchRequest,
  type SearchCandidate,
  toCandidate,
} from '../../../retrieval/hybrid-search.js';
import { publishedDocument } from '../../../retrieval/published-documents.js';
import type { VectorStore } from '../../../retrieval/vector-store.js';

/**
 * A Context still has work to do while a Document waits for its embedding. An SQL condition over the
 * `contexts` row of the surrounding query (spelled `contexts.id`: drizzle renders a column of the
 * selected table unqualified, which the subquery would take for its own `id`).
 */
export const everyDocumentEmbedded = sql<boolean>`NOT EXISTS (
  SELECT 1 FROM documents d WHERE d.context_id = contexts.id AND d.embedding_status = 'pending' AND ${publishedDocument('d')})`;

/**
 * The search side of the `documents`, `document_terms` and `context_terms` tables (the documents
 * repository writes them): retrieval/ builds the statements, this runs them.
 */
export function createDocumentSearchRepository(database: Database, vectors: VectorStore) {
  const preparedDimensions = new Map<number, Promise<void>>();
  return {
    /** The candidates of one Context for a query, each with its lexical and semantic score. */
    async candidates(request: HybridSearchRequest): Promise<SearchCandidate[]> {
      const result = await database.execute(candidatesStatement(vectors, request));
      return rowsOf<CandidateRow>(result).map(toCandidate);
    },

    /**
     * Creates the vector index of a dimension the first time a process embeds it (pgvector only).
     * Deliberately at run time: the dimensions are those of the models users configure
     * (docs/architecture.md#schema-work-done-at-run-time).
     */
    prepareVectors(dimensions: number): Promise<void> {
      const statement = vectors.indexStatement(dimensions);
      if (!statement) return Promise.resolve();
      let ready = preparedDimensions.get(dimensions);
      if (!ready) {
        ready = database.execute(statement).then(() => undefined);
        ready.catch(() => preparedDimensions.delete(dimensions));
        preparedDimensions.set(dimensions, ready);
      }
      return ready;
    },
  };
}

export type DocumentSearchRepository = ReturnType<typeof createDocumentSearchRepository>;
