import { type SQL, sql } from 'drizzle-orm';
import type { MetadataFilter } from '../http/metadata-filter.js';
import { type Database, rowsOf, uuidArray } from '../platform/database/connection.js';
import type { VectorStore } from './vector-store.js';

// BM25 with Anserini's defaults (k1 0.9, b 0.4), the strongest plain-BM25 setting on BEIR. Terms are
// PostgreSQL's English stems (`to_tsvector('english', …)`: stop words dropped, Snowball stemmer),
// kept per Document in `document_terms` with the Context's N and total length in `contexts`.
// Inlined into the SQL (a parameter in `1 - $1` would be typed integer).
const k1 = sql.raw('0.9');
const k1PlusOne = sql.raw('1.9');
const b = sql.raw('0.4');

/** The lexical analysis every indexed text and every query goes through. */
export const analysed = (text: SQL) => sql`to_tsvector('english', ${text})`;

/** Number of indexed terms of a text (BM25's document length). */
export const termCountOf = (text: SQL) =>
  sql`(SELECT coalesce(sum(array_length(t.positions, 1)), 0)::int FROM unnest(${analysed(text)}) t)`;

/** Writes the postings of the given Documents (their `term_count` already set). */
export async function indexTerms(database: Database, documentIds: string[]): Promise<void> {
  if (documentIds.length === 0) return;
  await database.execute(sql`
    INSERT INTO document_terms (context_id, term, document_id, frequency, document_length)
    SELECT d.context_id, t.lexeme, d.id, array_length(t.positions, 1), d.term_count
    FROM documents d, unnest(${analysed(sql`d.content`)}) t
    WHERE d.id = ANY(${uuidArray(documentIds)})`);
}

export type DocumentFilter = { metadata?: MetadataFilter; legacyFilter?: string | null };

/** SQL over the `documents` row aliased `d`: SPEC §2's rule (scalar = equality, array = any of). */
export function documentFilterSql(filter: DocumentFilter): SQL {
  const conditions: SQL[] = [];
  for (const [key, value] of Object.entries(filter.metadata ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    const alternatives = values.map((one) => sql`d.metadata @> ${JSON.stringify({ [key]: one })}::jsonb`);
    conditions.push(sql`(${sql.join(alternatives, sql` OR `)})`);
  }
  if (filter.legacyFilter !== undefined && filter.legacyFilter !== null) {
    conditions.push(sql`d.filter = ${filter.legacyFilter}`);
  }
  return conditions.length === 0 ? sql`true` : sql.join(conditions, sql` AND `);
}

export type SearchMode = 'hybrid' | 'lexical' | 'vector';

export type HybridSearchRequest = {
  contextId: string;
  text: string;
  /** The query's embedding by the Context's model; absent when the Context has nothing embedded. */
  vector?: Float32Array;
  filter: DocumentFilter;
  /** Candidates taken from each ranking before fusion. */
  candidates: number;
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

type CandidateRow = {
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
 * The top BM25 candidates and the nearest vectors of one Context, each with both scores, in one
 * statement. Fusion (hybrid-ranking.ts) orders them.
 */
export async function searchCandidates(
  database: Database,
  vectors: VectorStore,
  request: HybridSearchRequest,
): Promise<SearchCandidate[]> {
  const { contextId, vector, candidates } = request;
  const filter = documentFilterSql(request.filter);
  const filtered = request.filter.metadata || request.filter.legacyFilter != null;
  const lexicalFilter = filtered ? sql`JOIN documents d ON d.id = p.document_id AND ${filter}` : sql``;
  const dimensions = vector ? sql.raw(String(vector.length)) : sql.raw('0');
  const nearest = vector
    ? sql`SELECT d.id FROM documents d
          WHERE d.context_id = ${contextId} AND d.embedding_dimensions = ${dimensions} AND ${filter}
          ORDER BY ${vectors.nearestFirst(vector)} LIMIT ${candidates}`
    : sql`SELECT NULL::uuid AS id WHERE false`;
  const similarity = vector
    ? sql`CASE WHEN d.embedding_dimensions = ${dimensions} THEN ${vectors.similarity(vector)} END`
    : sql`NULL::float8`;
  const result = await database.execute(sql`
    WITH query_terms AS (
      SELECT lexeme AS term, array_length(positions, 1) AS query_frequency
      FROM unnest(${analysed(sql`${request.text}::text`)})
    ),
    statistics AS (
      SELECT greatest(document_count, 1)::float8 AS n,
             greatest(term_total::float8 / greatest(document_count, 1), 1) AS average_length
      FROM contexts WHERE id = ${contextId}
    ),
    term_weights AS (
      SELECT q.term, q.query_frequency,
             ln(1 + (s.n - count(p.document_id) + 0.5) / (count(p.document_id) + 0.5)) AS idf
      FROM query_terms q CROSS JOIN statistics s
      LEFT JOIN document_terms p ON p.context_id = ${contextId} AND p.term = q.term
      GROUP BY q.term, q.query_frequency, s.n
    ),
    lexical AS (
      SELECT p.document_id,
             sum(w.query_frequency * w.idf * p.frequency * ${k1PlusOne}
                 / (p.frequency + ${k1} * (1 - ${b} + ${b} * p.document_length / s.average_length))) AS score
      FROM term_weights w
      JOIN document_terms p ON p.context_id = ${contextId} AND p.term = w.term
      ${lexicalFilter}
      CROSS JOIN statistics s
      GROUP BY p.document_id
    ),
    lexical_top AS (SELECT document_id AS id FROM lexical ORDER BY score DESC LIMIT ${candidates}),
    vector_top AS (${nearest}),
    candidate_ids AS (SELECT id FROM lexical_top UNION SELECT id FROM vector_top)
    SELECT d.id, d.content, d.filter, d.metadata, d.created_at, d.updated_at,
           l.score AS lexical_score,
           (SELECT sum(query_frequency * idf) * ${k1PlusOne} FROM term_weights) AS lexical_maximum,
           ${similarity} AS similarity
    FROM candidate_ids c
    JOIN documents d ON d.id = c.id
    LEFT JOIN lexical l ON l.document_id = c.id`);
  return rowsOf<CandidateRow>(result).map((row) => {
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
  });
}
