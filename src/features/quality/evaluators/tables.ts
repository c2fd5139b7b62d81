import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../../platform/database/columns.js';
import { tenantKey } from '../../identity/workspaces/tables.js';

/**
 * How an output is scored (docs/evaluations.md#evaluators): a type and its settings. Deleted
 * evaluators leave the API; the scores they gave stay with the evaluations that hold them.
 */
export const evaluators = pgTable(
  'evaluators',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    /** exact_match, contains, regex, json_valid, similarity, latency or cost. */
    type: text('type').notNull(),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('evaluators_workspace_index').on(table.workspaceId, table.createdAt)],
);
