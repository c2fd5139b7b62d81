import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type {
  IndexingMetadata,
  IndexingStatus,
  LoaderConfigItem,
  SplitterConfig,
} from '../../../core/json-columns.js';
import { createdAt, updatedAt } from '../../../platform/database/columns.js';
import { tenantKey } from '../../identity/workspaces/tables.js';
import { contexts } from '../contexts/tables.js';

/** A repeatable file loader that fills a Context (docs/api.md Context Source). */
export const contextSources = pgTable(
  'context_sources',
  {
    ...tenantKey(),
    contextId: uuid('context_id')
      .notNull()
      .references(() => contexts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    loaderId: text('loader_id').notNull().default('file'),
    loaderConfig: jsonb('loader_config').$type<LoaderConfigItem[]>().notNull().default([]),
    splitterConfig: jsonb('splitter_config').$type<SplitterConfig>().notNull(),
    indexingStatus: text('indexing_status').$type<IndexingStatus>().notNull().default('PENDING'),
    /**
     * Counts the processings begun: when two overlap (add_files, then /process at once), only the
     * newest keeps its Documents, so the source holds exactly one complete set.
     */
    generation: integer('generation').notNull().default(0),
    indexedAt: timestamp('indexed_at', { withTimezone: true, mode: 'date' }),
    indexingMetadata: jsonb('indexing_metadata').$type<IndexingMetadata>(),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('context_sources_context_index').on(table.contextId, table.createdAt)],
);
