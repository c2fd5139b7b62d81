import { doublePrecision, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, deletedAt, updatedAt } from '../../../platform/database/columns.js';
import { actions } from '../../authoring/actions/tables.js';
import { tenantKey } from '../../identity/workspaces/tables.js';

/**
 * Online evaluation (docs/evaluations.md#monitors): a sampled share of an Action's production
 * generations is scored in the background. `scanned_until`/`scanned_id` mark the last generation a
 * sweep read, so each is read once, in the order they were made.
 */
export const monitors = pgTable(
  'monitors',
  {
    ...tenantKey(),
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    evaluatorIds: jsonb('evaluator_ids').$type<string[]>().notNull(),
    sampleRate: doublePrecision('sample_rate').notNull(),
    environment: text('environment'),
    scannedUntil: timestamp('scanned_until', { withTimezone: true, mode: 'date' }).notNull(),
    scannedId: uuid('scanned_id'),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (table) => [index('monitors_workspace_index').on(table.workspaceId, table.createdAt)],
);
