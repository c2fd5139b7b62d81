import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, real, text, uuid } from 'drizzle-orm/pg-core';
import type { EmbeddingStatus } from '../../../core/json-columns.js';
import { createdAt, updatedAt } from '../../../platform/database/columns.js';
import { tenantKey } from '../../identity/workspaces/tables.js';
import { contextSources } from '../context-sources/tables.js';
import { contexts } from '../contexts/tables.js';

/** One retrievable chunk (docs/api.md Document). The embedding is filled by the embedding job. */
export const documents = pgTable(
  'documents',
  {
    ...tenantKey(),
    contextId: uuid('context_id')
      .notNull()
      .references(() => contexts.id, { onDelete: 'cascade' }),
    sourceId: uuid('source_id').references(() => contextSources.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    filter: text('filter'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /** Number of indexed terms (BM25 document length). */
    termCount: integer('term_count').notNull(),
    /**
     * Unit-length vector. Stored as real[] so one schema serves PostgreSQL with and without pgvector;
     * with pgvector an HNSW index over `embedding::vector(n)` per dimension serves the search.
     */
    embedding: real('embedding').array(),
    embeddingDimensions: integer('embedding_dimensions'),
    embeddingStatus: text('embedding_status').$type<EmbeddingStatus>().notNull().default('pending'),
    /**
     * The large write that staged this chunk (`document_writes`), in transactions of one slice each
     * so the embedded database is never held for a whole write. No read sees the chunk while that
     * write's row exists; deleting the row publishes every chunk at once, in one short statement.
     * Null for a write of one slice, and cleared when the chunk's embedding is stored.
     */
    writeId: uuid('write_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('documents_context_index').on(table.contextId, table.createdAt, table.id),
    index('documents_write_index').on(table.writeId).where(sql`${table.writeId} is not null`),
    index('documents_pending_index').on(table.contextId).where(sql`${table.embeddingStatus} = 'pending'`),
    index('documents_source_index').on(table.sourceId).where(sql`${table.sourceId} is not null`),
  ],
);

/**
 * A large Document write still staging its chunks: while its row exists its chunks are invisible
 * (documents.write_id). A row older than any write takes belongs to a process that died mid-write.
 */
export const documentWrites = pgTable('document_writes', {
  ...tenantKey(),
  contextId: uuid('context_id')
    .notNull()
    .references(() => contexts.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

/**
 * BM25 postings: one row per (Document, stemmed term), written with the Document. `impact` is the
 * term's BM25 weight in the Document when it was written; a search reads each query term's
 * highest-impact postings first. Two covering indexes are written by hand in
 * drizzle/0002_contexts.sql (drizzle cannot declare INCLUDE): `document_terms_impact` on
 * (context_id, term, impact DESC) and `document_terms_document` on (document_id, term), each
 * including what scoring reads, so a search never visits the table.
 */
export const documentTerms = pgTable('document_terms', {
  contextId: uuid('context_id').notNull(),
  term: text('term').notNull(),
  documentId: uuid('document_id')
    .notNull()
    .references(() => documents.id, { onDelete: 'cascade' }),
  frequency: integer('frequency').notNull(),
  documentLength: integer('document_length').notNull(),
  impact: real('impact').notNull(),
});

/** Document frequency of each term in a Context (BM25's idf), kept with every postings write. */
export const contextTerms = pgTable(
  'context_terms',
  {
    contextId: uuid('context_id')
      .notNull()
      .references(() => contexts.id, { onDelete: 'cascade' }),
    term: text('term').notNull(),
    documentFrequency: integer('document_frequency').notNull(),
  },
  (table) => [primaryKey({ columns: [table.contextId, table.term] })],
);
