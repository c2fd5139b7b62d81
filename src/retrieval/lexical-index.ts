import { type SQL, sql } from 'drizzle-orm';
import { uuidArray } from '../platform/database/connection.js';

// BM25 with Anserini's defaults (k1 0.9, b 0.4), the strongest plain-BM25 setting on BEIR. Terms are
// PostgreSQL's English stems (`to_tsvector('english', …)`: stop words dropped, Snowball stemmer).
// Postings live in `document_terms`, document frequencies in `context_terms`, N and the total
// length in `contexts`; all are written in the transaction that writes the Documents.

/** The lexical analysis every indexed text and every query goes through. */
export const analysed = (text: SQL) => sql`to_tsvector('english', ${text})`;

/** Number of indexed terms of a text (BM25's document length). */
export const termCountOf = (text: SQL) =>
  sql`(SELECT coalesce(sum(array_length(t.positions, 1)), 0)::int FROM unnest(${analysed(text)}) t)`;

/**
 * BM25's saturated term frequency (without idf): in [0, k1 + 1). Constants inlined (a parameter in
 * `1 - $1` would be typed integer) and typed float8: a bare `1.9` is numeric, and numeric arithmetic
 * over every posting of a query's terms was most of a filtered search (5 of its 14 ms at 100k chunks).
 */
export const termWeight = (frequency: SQL, length: SQL, averageLength: SQL) =>
  sql`((${frequency})::float8 * 1.9::float8 / ((${frequency})::float8 + 0.9::float8 * (0.6::float8 + 0.4::float8 * (${length})::float8 / ${averageLength})))`;

/** k1 + 1: the most one term can weigh, so that Σ idf · (k1 + 1) is a query's best possible score. */
export const maximumTermWeight = sql.raw('1.9');

/**
 * The statement writing the postings and document frequencies of Documents whose row (with
 * `term_count`) and the Context's BM25 counts are already written. `impact` uses the Context's current
 * average length. The documents repository runs it in the transaction that writes the Documents.
 */
export function indexDocumentsStatement(contextId: string, documentIds: string[]): SQL {
  return sql`
    WITH bm25_counts AS (
      SELECT greatest(term_total::float8 / greatest(document_count, 1), 1) AS average_length
      FROM contexts WHERE id = ${contextId}
    ),
    inserted AS (
      INSERT INTO document_terms (context_id, term, document_id, frequency, document_length, impact)
      SELECT d.context_id, t.lexeme, d.id, array_length(t.positions, 1), d.term_count,
             ${termWeight(sql`array_length(t.positions, 1)`, sql`d.term_count`, sql`s.average_length`)}
      FROM documents d CROSS JOIN bm25_counts s, unnest(${analysed(sql`d.content`)}) t
      WHERE d.id = ANY(${uuidArray(documentIds)})
      RETURNING term
    )
    INSERT INTO context_terms (context_id, term, document_frequency)
    SELECT ${contextId}, term, count(*) FROM inserted GROUP BY term
    ON CONFLICT (context_id, term)
    DO UPDATE SET document_frequency = context_terms.document_frequency + excluded.document_frequency`;
}

/** The statement removing the postings of Documents and taking them out of the document frequencies. */
export function unindexDocumentsStatement(contextId: string, documentIds: string[]): SQL {
  return sql`
    WITH removed AS (
      DELETE FROM document_terms WHERE document_id = ANY(${uuidArray(documentIds)}) RETURNING term
    )
    UPDATE context_terms AS c SET document_frequency = c.document_frequency - r.removed
    FROM (SELECT term, count(*) AS removed FROM removed GROUP BY term) AS r
    WHERE c.context_id = ${contextId} AND c.term = r.term`;
}
