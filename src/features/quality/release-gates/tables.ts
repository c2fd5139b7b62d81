import { integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../../platform/database/columns.js';
import { actions } from '../../authoring/actions/tables.js';
import { datasets } from '../datasets/tables.js';
import type { PinnedEvaluator } from '../evaluations/tables.js';

/**
 * What a deploy of an Action to an environment needs (docs/evaluations.md#release-gates): a
 * successful evaluation of the version on the dataset's current version whose means reach
 * `min_mean`, at most `max_regressions` items worse than the deployed version's, and approvals.
 */
export const releaseGates = pgTable(
  'release_gates',
  {
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    environment: text('environment').notNull(),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    /** The dataset version a gate's evaluation must have run on: a new item changes no gate. */
    datasetVersion: integer('dataset_version').notNull(),
    evaluatorIds: jsonb('evaluator_ids').$type<string[]>().notNull(),
    /** Each evaluator as it was when the gate was set: an evaluation scored otherwise is no evidence. */
    evaluatorPins: jsonb('evaluator_pins').$type<PinnedEvaluator[]>().notNull(),
    minMean: jsonb('min_mean').$type<Record<string, number>>().notNull().default({}),
    maxRegressions: integer('max_regressions'),
    approvals: integer('approvals'),
    updatedById: text('updated_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.actionId, table.environment] })],
);

/** A member's approval of one saved version, counted by gates with `approvals`. */
export const versionApprovals = pgTable(
  'version_approvals',
  {
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    userId: text('user_id').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.actionId, table.version, table.userId] })],
);
