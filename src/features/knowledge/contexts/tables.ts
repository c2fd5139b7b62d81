import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { SplitterConfig } from '../../../core/json-columns.js';
import { createdAt, updatedAt } from '../../../platform/database/columns.js';
import { tenantKey } from '../../identity/workspaces/tables.js';

/** A document library indexed for retrieval (docs/api.md Context). */
export const contexts = pgTable(
  'contexts',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    responseLength: integer('response_length'),
    splitterConfig: jsonb('splitter_config').$type<SplitterConfig>().notNull(),
    /** `"<provider>/<model>"` of a configured embedding model; null = the offline default embedder. */
    embeddingModel: text('embedding_model'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    createdById: text('created_by_id').notNull(),
    /** BM25 counts, kept in step with every Document write (N and the total of document lengths). */
    documentCount: integer('document_count').notNull().default(0),
    termTotal: bigint('term_total', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('contexts_workspace_index').on(table.workspaceId, table.createdAt)],
);
