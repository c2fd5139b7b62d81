import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../../platform/database/columns.js';
import { tenantKey } from '../../identity/workspaces/tables.js';

/**
 * A set of inputs (and the outputs expected for them) that evaluations run an Action over
 * (docs/evaluations.md#datasets). Its items are versioned: each change adds a version, and every
 * earlier version stays readable, so an evaluation keeps the exact items it ran on.
 */
export const datasets = pgTable(
  'datasets',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** The newest version: 1 when made, one more for each change of its items. */
    version: integer('version').notNull().default(1),
    /** How many items the newest version holds. */
    itemCount: integer('item_count').notNull().default(0),
    /** How many items were ever added: the next item's place in the order (an edit keeps its place). */
    itemsAdded: integer('items_added').notNull().default(0),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Deleted datasets are gone from the API, but evaluations that ran on them keep their items. */
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('datasets_workspace_index').on(table.workspaceId, table.createdAt)],
);

/**
 * One item as it stands over a range of its dataset's versions: from `added_in` until the version
 * that removed or replaced it (`removed_in`, null while it is current). An edit ends the row and
 * starts a new one with the same `item_id`, so version N is every row with
 * `added_in <= N < coalesce(removed_in, ∞)`.
 */
export const datasetItems = pgTable(
  'dataset_items',
  {
    id: uuid('id').primaryKey(),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    /** The item's GUID, the same in every version it is in. */
    itemId: uuid('item_id').notNull(),
    position: integer('position').notNull(),
    input: jsonb('input').$type<unknown>().notNull(),
    expectedOutput: text('expected_output'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    addedIn: integer('added_in').notNull(),
    removedIn: integer('removed_in'),
  },
  (table) => [
    index('dataset_items_order_index').on(table.datasetId, table.position),
    index('dataset_items_item_index').on(table.datasetId, table.itemId),
  ],
);
