import {
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from '../../../platform/database/columns.js';
import { actions } from '../../authoring/actions/tables.js';
import { tenantKey } from '../../identity/workspaces/tables.js';
import { datasetItems, datasets } from '../datasets/tables.js';

/** An evaluator as an evaluation pinned it when it started: later edits do not change its scores. */
export type PinnedEvaluator = { id: string; name: string; type: string; config: Record<string, unknown> };

/**
 * One evaluation run (docs/evaluations.md#evaluation-runs): an Action version over one dataset
 * version, scored by pinned evaluators. Its items are `evaluation_results` rows, made when it starts;
 * jobs fill them in. `report` holds the summary once the run has ended, so reading it costs nothing.
 */
export const evaluations = pgTable(
  'evaluations',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** A model run instead of the version's (`provider/model`), for a matrix over models. */
    model: text('model'),
    /** The environment the version was taken from, when the request named one (or none at all). */
    environment: text('environment'),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    datasetVersion: integer('dataset_version').notNull(),
    evaluators: jsonb('evaluators').$type<PinnedEvaluator[]>().notNull(),
    concurrency: integer('concurrency').notNull(),
    /** PENDING, RUNNING, SUCCESS, FAILED or CANCELLED. */
    status: text('status').notNull(),
    /** Why a FAILED run could not proceed. */
    error: text('error'),
    total: integer('total').notNull(),
    report: jsonb('report').$type<Record<string, unknown>>(),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('evaluations_workspace_index').on(table.workspaceId, table.createdAt),
    // Release gates look up the evaluations of one version of one Action.
    index('evaluations_action_index').on(table.actionId, table.version, table.createdAt),
  ],
);

/**
 * One item of an evaluation: the dataset item row it ran (that version's input and expected output),
 * the generation GUID chosen before it ran (so a retry finds a generation stored by an earlier
 * attempt instead of running again), and, once finished, its output and scores.
 */
export const evaluationResults = pgTable(
  'evaluation_results',
  {
    evaluationId: uuid('evaluation_id')
      .notNull()
      .references(() => evaluations.id, { onDelete: 'cascade' }),
    /** 0, 1, 2, … in the dataset's order. */
    position: integer('position').notNull(),
    itemRowId: uuid('item_row_id')
      .notNull()
      .references(() => datasetItems.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id').notNull(),
    generationId: uuid('generation_id').notNull(),
    /** pending, done or failed (the item's run failed: no scores). */
    status: text('status').notNull().default('pending'),
    output: text('output'),
    error: text('error'),
    /** By evaluator GUID: a number in [0, 1], or null (its reason in `score_errors`). */
    scores: jsonb('scores').$type<Record<string, number | null>>().notNull().default({}),
    scoreErrors: jsonb('score_errors').$type<Record<string, string>>().notNull().default({}),
    latencyMs: integer('latency_ms'),
    costUsd: doublePrecision('cost_usd'),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    primaryKey({ columns: [table.evaluationId, table.position] }),
    index('evaluation_results_item_index').on(table.evaluationId, table.itemId),
  ],
);
