import { type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../platform/database/connection.js';

/** The span and scope of a statistics request. */
export type StatisticsScope = { from: Date; to: Date; actionId?: string };

export type DailyFigures = {
  day: string;
  runs: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  /** Runs with at least one (non-deleted) feedback. */
  withFeedback: number;
  /** Runs whose model call failed (not data records: counted from run_failures). */
  errors: number;
};

export type ActionFigures = {
  actionId: string;
  runs: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  withFeedback: number;
};

/** PostgreSQL answers counts and sums as text (bigint, numeric), PGlite sometimes as numbers. */
type Numeric = number | string | null;
type DailyRow = {
  day: string;
  runs: Numeric;
  input_tokens: Numeric;
  output_tokens: Numeric;
  cost: Numeric;
  with_feedback: Numeric;
  errors: Numeric;
};
type ActionRow = { action_id: string; runs: Numeric; p50: Numeric; p95: Numeric; with_feedback: Numeric };
const number = (value: Numeric) => Number(value ?? 0);
const nullableNumber = (value: Numeric) => (value === null ? null : Number(value));

/**
 * The UTC day of a timestamp, written exactly as the planner statistics of migration 0009 are: that
 * match is what lets PostgreSQL estimate ~30 days in a month and group in a hash table.
 */
const dayOf = (column: SQL) => sql`date_trunc('day', ${column} AT TIME ZONE 'UTC')`;

/**
 * Aggregates over a workspace's generations for the console's dashboard, computed in SQL on the
 * `(workspace_id, created_at)` index: one statement per series, whatever the number of runs.
 */
export function createStatisticsRepository(database: Database) {
  function scoped(workspaceId: string, scope: StatisticsScope): SQL {
    const action = scope.actionId ? sql` AND g.action_id = ${scope.actionId}` : sql``;
    return sql`g.workspace_id = ${workspaceId} AND g.created_at >= ${scope.from.toISOString()}
      AND g.created_at < ${scope.to.toISOString()}${action}`;
  }
  // One probe of the feedback index per generation; a join of the workspace's rated generations measured the same.
  const hasFeedback = sql`EXISTS (SELECT 1 FROM feedback f WHERE f.generation_id = g.id AND NOT f.deleted)`;

  return {
    /** Per UTC day with runs or failed runs: runs, tokens, cost, runs with feedback, and errors. */
    async daily(workspaceId: string, scope: StatisticsScope): Promise<DailyFigures[]> {
      const failuresScope = sql`r.workspace_id = ${workspaceId} AND r.created_at >= ${scope.from.toISOString()}
        AND r.created_at < ${scope.to.toISOString()}${scope.actionId ? sql` AND r.action_id = ${scope.actionId}` : sql``}`;
      const result = await database.execute(sql`
        WITH runs AS (
          SELECT ${dayOf(sql`g.created_at`)} AS day,
                 count(*) AS runs,
                 coalesce(sum(g.num_input_tokens), 0) AS input_tokens,
                 coalesce(sum(g.num_output_tokens), 0) AS output_tokens,
                 coalesce(sum((g.cost->>'generation')::float8), 0) AS cost,
                 count(*) FILTER (WHERE ${hasFeedback}) AS with_feedback
          FROM generations g
          WHERE ${scoped(workspaceId, scope)}
          GROUP BY 1
        ), errors AS (
          SELECT ${dayOf(sql`r.created_at`)} AS day, count(*) AS errors
          FROM run_failures r
          WHERE ${failuresScope}
          GROUP BY 1
        )
        SELECT to_char(coalesce(runs.day, errors.day), 'YYYY-MM-DD') AS day, runs.runs, runs.input_tokens, runs.output_tokens,
               runs.cost, runs.with_feedback, errors.errors
        FROM runs FULL JOIN errors ON errors.day = runs.day
        ORDER BY 1`);
      return rowsOf<DailyRow>(result).map((row) => ({
        day: row.day,
        runs: number(row.runs),
        inputTokens: number(row.input_tokens),
        outputTokens: number(row.output_tokens),
        cost: number(row.cost),
        withFeedback: number(row.with_feedback),
        errors: number(row.errors),
      }));
    },

    /** Per Action with runs, most runs first: latency percentiles and runs with feedback. */
    async perAction(workspaceId: string, scope: StatisticsScope): Promise<ActionFigures[]> {
      const result = await database.execute(sql`
        SELECT g.action_id,
               count(*) AS runs,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY g.latency_ms) AS p50,
               percentile_cont(0.95) WITHIN GROUP (ORDER BY g.latency_ms) AS p95,
               count(*) FILTER (WHERE ${hasFeedback}) AS with_feedback
        FROM generations g
        WHERE ${scoped(workspaceId, scope)}
        GROUP BY g.action_id ORDER BY runs DESC, g.action_id`);
      return rowsOf<ActionRow>(result).map((row) => ({
        actionId: row.action_id,
        runs: number(row.runs),
        latencyP50Ms: nullableNumber(row.p50),
        latencyP95Ms: nullableNumber(row.p95),
        withFeedback: number(row.with_feedback),
      }));
    },
  };
}

export type StatisticsRepository = ReturnType<typeof createStatisticsRepository>;
