import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { GenerationCost, PromptMessage } from '../../../core/json-columns.js';
import { createdAt, updatedAt } from '../../../platform/database/columns.js';
import { actions } from '../../authoring/actions/tables.js';
import { tenantKey, workspaces } from '../../identity/workspaces/tables.js';
import { experiments } from '../experiments/tables.js';
import { sessions } from '../sessions/tables.js';

/**
 * A run whose model call failed: not a generation (those are complete generations), but counted so
 * the dashboard can show errors per day next to runs.
 */
export const runFailures = pgTable(
  'run_failures',
  {
    ...tenantKey(),
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    version: integer('version'),
    environment: text('environment'),
    source: text('source').notNull(),
    modelProvider: text('model_provider'),
    model: text('model'),
    /** The error as the caller saw it, bounded. */
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('run_failures_workspace_created_index').on(table.workspaceId, table.createdAt)],
);

/**
 * The dashboard's figures of one finished UTC day and Action, computed from the generations when first
 * asked for (docs/api.md#generations-v1data): a month of a million runs is then a few hundred rows. The
 * latencies are kept as their distinct values with counts, so percentiles over many days stay exact.
 */
export const generationDays = pgTable(
  'generation_days',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    /** Null: the day's generations without an Action (model calls traced over OpenTelemetry). */
    actionId: uuid('action_id').references(() => actions.id, { onDelete: 'cascade' }),
    runs: integer('runs').notNull(),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull(),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull(),
    cost: doublePrecision('cost').notNull(),
    withFeedback: integer('with_feedback').notNull(),
    /** Runs whose latest rating is good and bad (Klu's "2" and "1", or the words: statistics-repository.ts). */
    goodFeedback: integer('good_feedback').notNull().default(0),
    badFeedback: integer('bad_feedback').notNull().default(0),
    errors: integer('errors').notNull(),
    latencyValues: integer('latency_values').array().notNull(),
    latencyCounts: integer('latency_counts').array().notNull(),
  },
  // One row per day and Action, and one for the day's generations without an Action: the null is a
  // key like any other Action's.
  (table) => [
    unique('generation_days_key').on(table.workspaceId, table.day, table.actionId).nullsNotDistinct(),
  ],
);

/**
 * Which days of a workspace are in `generation_days`, and when they were computed. A change to a
 * finished day (feedback, an edited or deleted record) stamps `changed_at`; a rollup computed before
 * that stamp is computed again on the next read.
 */
export const generationDaysComputed = pgTable(
  'generation_days_computed',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.day] })],
);

/** One stored generation (the API's `data`); only complete generations are stored. */
export const generations = pgTable(
  'generations',
  {
    ...tenantKey(),
    /** Null for a model call traced over OpenTelemetry that names no Action (`lectern.action`). */
    actionId: uuid('action_id').references(() => actions.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id').references(() => sessions.id),
    experimentId: uuid('experiment_id').references(() => experiments.id),
    /** The trace and span it was made in: a run's own trace, or the span an application sent. */
    traceId: text('trace_id'),
    spanId: text('span_id'),
    input: jsonb('input').$type<unknown>(),
    output: text('output').notNull(),
    fullPromptSent: jsonb('full_prompt_sent').$type<PromptMessage[]>().notNull().default([]),
    /** The user turn this run added, replayed before later turns of the same session. */
    turnMessages: jsonb('turn_messages').$type<PromptMessage[]>().notNull().default([]),
    model: text('model'),
    modelProvider: text('model_provider'),
    numInputTokens: integer('num_input_tokens'),
    numOutputTokens: integer('num_output_tokens'),
    latencyMs: integer('latency_ms'),
    cost: jsonb('cost').$type<GenerationCost>(),
    environment: text('environment'),
    version: integer('version'),
    extUserId: text('ext_user_id'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /** How it was made: sync, stream, async, experiment, workflow, api (POST /v1/data), gateway. */
    source: text('source').notNull(),
    cached: boolean('cached').notNull().default(false),
    /** hash(version, rendered messages, model, options) for `cache: true` runs (docs/architecture.md#layers). */
    cacheKey: text('cache_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('generations_action_index').on(table.workspaceId, table.actionId, table.createdAt),
    // The console's log view: every generation of a workspace, newest first, one page at a time.
    index('generations_workspace_created_index').on(table.workspaceId, table.createdAt),
    // Partial: most generations have no session, cache key or experiment, and every run inserts one.
    index('generations_session_index')
      .on(table.sessionId, table.createdAt)
      .where(sql`${table.sessionId} is not null`),
    index('generations_cache_index')
      .on(table.workspaceId, table.cacheKey)
      .where(sql`${table.cacheKey} is not null`),
    index('generations_experiment_index')
      .on(table.experimentId)
      .where(sql`${table.experimentId} is not null`),
    // A span is one generation: an exporter's retry of a batch stores nothing twice.
    uniqueIndex('generations_span_index')
      .on(table.workspaceId, table.traceId, table.spanId)
      .where(sql`${table.spanId} is not null`),
  ],
);

/** A monitor's score of one generation by one evaluator: null with the reason when it could not be computed. */
export const generationScores = pgTable(
  'generation_scores',
  {
    generationId: uuid('generation_id')
      .notNull()
      .references(() => generations.id, { onDelete: 'cascade' }),
    evaluatorId: uuid('evaluator_id').notNull(),
    workspaceId: uuid('workspace_id').notNull(),
    actionId: uuid('action_id').notNull(),
    monitorId: uuid('monitor_id').notNull(),
    score: doublePrecision('score'),
    error: text('error'),
    /** The generation's day (UTC): the Dashboard's daily means are by the day the generation was made. */
    day: date('day', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.generationId, table.evaluatorId] }),
    index('generation_scores_day_index').on(table.workspaceId, table.day),
    index('generation_scores_evaluator_index').on(table.evaluatorId, table.score),
  ],
);
