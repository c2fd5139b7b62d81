import { type SQL, sql } from 'drizzle-orm';
import type { MetadataFilter } from '../core/metadata-filter.js';
import { analysed, maximumTermWeight, termWeight } from './lexical-index.js';
import { publishedDocument } from './published-documents.js';
import type { VectorStore } from './vector-store.js';

/**
 * Postings read per query term, highest impact first. A Document outside every term's top list can
 * only match terms so common that their idf is small; for rarer terms the list is the whole posting
 * list, so their scores are exact. Keeps a search's cost flat as a Context grows.
 */
export const postingsPerTerm = 500;

export type DocumentFilter = { metadata?: MetadataFilter; legacyFilter?: string | null };

/** SQL over the `documents` row aliased `d`: the rule of docs/api.md#metadata-filters (scalar = equality, array = any of). */
export function documentFilterSql(filter: DocumentFilter): SQL {
  const conditions: SQL[] = [];
  for (const [key, value] of Object.entries(filter.metadata ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    const alternatives = values.map((one) => sql`d.metadata @> ${JSON.stringify({ [key]: one })}::jsonb`);
    conditions.push(sql`(${sql.join(alternatives, sql` OR `)})`);
  }
  // Older clients send `filter: ""` to mean no filter.
  if (filter.legacyFilter) {
    conditions.push(sql`d.filter = ${filter.legacyFilter}`);
  }
  return conditions.length === 0 ? sql`true` : sql.join(conditions, sql` AND `);
}

export type { SearchMode } from '../core/wire-values.js';

export type HybridSearchRequest = {
  contextId: string;
  text: string;
  /** The query's embedding by the Context's model; absent when the Context has nothing embedded. */
  vector?: Float32Array;
  filter: DocumentFilter;
  /** Candidates taken from each ranking before fusion. */
  candidates: number;
  /** Postings read per query term (default `postingsPerTerm`). */
  postingsPerTerm?: number;
  /** Whether BM25 proposes candidates (false for a vector-only search; candidates still get both scores). */
  lexicalCandidates?: boolean;
};

export type SearchCandidate = {
  id: string;
  content: string;
  filter: string | null;
  metadata: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  /** BM25 divided by the best score this query could reach: in [0, 1), comparable across queries. */
  lexical: number;
  /** Cosine similarity clamped to [0, 1]; 0 for a Document not embedded yet. */
  semantic: number;
};

export type CandidateRow = {
  id: string;
  content: string;
  filter: string | null;
  metadata: Record<string, unknown>;
  created_at: string | Date;
  updated_at: string | Date;
  lexical_score: number | string | null;
  lexical_maximum: number | string | null;
  similarity: number | string | null;
};

/**
 * The statement that finds the top BM25 candidates and the nearest vectors of one Context, each with
 * both scores (rows for `toCandidate`). The documents feature runs it; fusion (hybrid-ranking.ts)
 * orders the candidates.
 */
export function candidatesStatement(vectors: VectorStore, request: HybridSearchRequest): SQL {
  const { contextId, vector, candidates } = request;
  const filter = documentFilterSql(request.filter);
  const filtered =
    Object.keys(request.filter.metadata ?? {}).length > 0 || Boolean(request.filter.legacyFilter);
  const dimensions = vector ? sql.raw(String(vector.length)) : sql.raw('0');
  const nearest = vector
    ? sql`SELECT d.id FROM documents d
          WHERE d.context_id = ${contextId} AND d.embedding_dimensions = ${dimensions} AND ${filter}
          ORDER BY ${vectors.nearestFirst(vector)} LIMIT ${candidates}`
    : sql`SELECT NULL::uuid AS id WHERE false`;
  const similarity = vector
    ? sql`CASE WHEN d.embedding_dimensions = ${dimensions} THEN ${vectors.similarity(vector)} END`
    : sql`NULL::float8`;
  // A posting `p`'s contribution: query frequency × idf × saturated term frequency.
  const bm25 = sql`w.query_frequency * w.idf * ${termWeight(sql`p.frequency`, sql`p.document_length`, sql`s.average_length`)}`;
  // With a filter every posting of the query terms is read (a filter can leave too few in the top lists),
  // and the filter is checked in score order (lexical_top).
  const lexicalPool =
    request.lexicalCandidates === false
      ? sql`SELECT NULL::uuid AS document_id, 0::float8 AS score WHERE false`
      : filtered
        ? sql`SELECT p.document_id, sum(${bm25}) AS score
          FROM term_weights w CROSS JOIN bm25_counts s
          JOIN document_terms p ON p.context_id = ${contextId} AND p.term = w.term
          GROUP BY p.document_id`
        : sql`SELECT p.document_id, sum(${bm25}) AS score
          FROM term_weights w CROSS JOIN bm25_counts s
          CROSS JOIN LATERAL (
            SELECT document_id, frequency, document_length FROM document_terms
            WHERE context_id = ${contextId} AND term = w.term
            ORDER BY impact DESC LIMIT ${request.postingsPerTerm ?? postingsPerTerm}
          ) p
          GROUP BY p.document_id`;
  return sql`
    WITH query_terms AS (
      SELECT lexeme AS term, array_length(positions, 1) AS query_frequency
      FROM unnest(${analysed(sql`${request.text}::text`)})
    ),
    bm25_counts AS (
      SELECT greatest(document_count, 1)::float8 AS n,
             greatest(term_total::float8 / greatest(document_count, 1), 1) AS average_length
      FROM contexts WHERE id = ${contextId}
    ),
    term_weights AS (
      SELECT q.term, q.query_frequency,
             ln(1 + (s.n - coalesce(t.document_frequency, 0) + 0.5) / (coalesce(t.document_frequency, 0) + 0.5)) AS idf
      FROM query_terms q CROSS JOIN bm25_counts s
      LEFT JOIN context_terms t ON t.context_id = ${contextId} AND t.term = q.term
    ),
    lexical_pool AS (${lexicalPool}),
    lexical_top AS (${
      filtered
        ? // Every posting scored, best first, then the filter checked in that order until enough pass:
          // a Document is looked up only until the candidates are found, not once per posting. The
          // lookup's LIMIT keeps it a lookup: as a plain EXISTS the planner may turn it into a scan of
          // every Document joined by hash when its statistics overestimate the postings (25 ms
          // instead of 8 ms at 100k chunks, whenever ANALYZE's sample was small).
          sql`SELECT ranked.document_id AS id
            FROM (SELECT document_id, score FROM lexical_pool ORDER BY score DESC) ranked
            CROSS JOIN LATERAL (
              SELECT 1 FROM documents d WHERE d.id = ranked.document_id AND ${filter} LIMIT 1
            ) passes
            LIMIT ${candidates}`
        : sql`SELECT document_id AS id FROM lexical_pool ORDER BY score DESC LIMIT ${candidates}`
    }),
    vector_top AS (${nearest}),
    candidate_ids AS (SELECT id FROM lexical_top UNION SELECT id FROM vector_top),
    -- Per candidate, an index lookup of exactly its postings of the query terms.
    exact_lexical AS (
      SELECT c.id AS document_id, x.score
      FROM candidate_ids c CROSS JOIN LATERAL (
        SELECT sum(${bm25}) AS score
        FROM document_terms p
        JOIN term_weights w ON w.term = p.term
        CROSS JOIN bm25_counts s
        WHERE p.document_id = c.id AND p.term = ANY ((SELECT array_agg(term) FROM query_terms)::text[])
      ) x
    )
    SELECT d.id, d.content, d.filter, d.metadata, d.created_at, d.updated_at,
           e.score AS lexical_score,
           (SELECT sum(query_frequency * idf) * ${maximumTermWeight} FROM term_weights) AS lexical_maximum,
           ${similarity} AS similarity
    FROM candidate_ids c
    -- A Document still being written (unpublished) is never an answer.
    JOIN documents d ON d.id = c.id AND ${publishedDocument('d')}
    LEFT JOIN exact_lexical e ON e.document_id = c.id`;
}

/** A candidate row with its lexical score scaled to [0, 1) and its similarity clamped to [0, 1]. */
export function toCandidate(row: CandidateRow): SearchCandidate {
  const maximum = Number(row.lexical_maximum ?? 0);
  const lexical = maximum > 0 ? Number(row.lexical_score ?? 0) / maximum : 0;
  return {
    id: row.id,
    content: row.content,
    filter: row.filter,
    metadata: row.metadata,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    lexical: Math.min(1, Math.max(0, lexical)),
    semantic: Math.min(1, Math.max(0, Number(row.similarity ?? 0))),
  };
}
