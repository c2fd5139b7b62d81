import { type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../../platform/database/connection.js';

/** A span of time, `from` inclusive and `to` exclusive. */
export type TimeRange = { from: Date; to: Date };

/** What a day's runs add up to, for one Action or for all of them. */
export type DayTotals = {
  day: string;
  runs: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  /** Runs with at least one (non-deleted) feedback. */
  withFeedback: number;
  /** Runs whose latest rating is good, and bad, on Klu's scale (`ratingValues`). */
  goodFeedback: number;
  badFeedback: number;
  /** Runs whose model call failed (not generations: counted from run_failures). */
  errors: number;
};

/** The figures of one UTC day and Action: what the dashboard's series are summed from. */
export type DayActionFigures = DayTotals & {
  /** Null: the generations without an Action (model calls traced over OpenTelemetry). */
  actionId: string | null;
  /** The distinct latencies (ms, ascending) and how many runs had each: exact percentiles merge. */
  latencyValues: number[];
  latencyCounts: number[];
};

/** PostgreSQL answers counts and sums as text (bigint, numeric), PGlite sometimes as numbers. */
type Numeric = number | string | null;
type FiguresRow = {
  day: string;
  action_id: string | null;
  runs: Numeric;
  input_tokens: Numeric;
  output_tokens: Numeric;
  cost: Numeric;
  with_feedback: Numeric;
  good_feedback: Numeric;
  bad_feedback: Numeric;
  errors: Numeric;
  latency_values: number[] | null;
  latency_counts: number[] | null;
};
const number = (value: Numeric) => Number(value ?? 0);

function figuresOf(row: FiguresRow): DayActionFigures {
  return {
    day: row.day,
    actionId: row.action_id,
    runs: number(row.runs),
    inputTokens: number(row.input_tokens),
    outputTokens: number(row.output_tokens),
    cost: number(row.cost),
    withFeedback: number(row.with_feedback),
    goodFeedback: number(row.good_feedback),
    badFeedback: number(row.bad_feedback),
    errors: number(row.errors),
    latencyValues: (row.latency_values ?? []).map(Number),
    latencyCounts: (row.latency_counts ?? []).map(Number),
  };
}

/** Days (`YYYY-MM-DD`) as one array parameter: drizzle would spread a JavaScript array into a list. */
function dayArray(days: string[], type: 'date' | 'text' = 'date'): SQL {
  for (const day of days) if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`Not a day: ${day}`);
  return sql`${`{${days.join(',')}}`}::${sql.raw(type)}[]`;
}

/**
 * The UTC day of a timestamp, written exactly as the planner statistics of migration 0009 are: that
 * match is what lets PostgreSQL estimate ~30 days in a month and group in a hash table.
 */
const dayOf = (column: SQL) => sql`date_trunc('day', ${column} AT TIME ZONE 'UTC')`;

/**
 * The `rating` values the Dashboard counts as good and as bad: Klu's scale (`"2"` good, `"1"` bad, as
 * its SDK and migrated data send them) and the words. A run counts by its latest rating.
 */
export const ratingValues = { good: ['2', 'positive', 'good'], bad: ['1', 'negative', 'bad'] } as const;

const valueList = (values: readonly string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/**
 * The per-day, per-Action figures of a workspace's generations and failed runs in a time range, in
 * one statement: the source of both the stored rollups and the live part of a span. Generations of
 * source `evaluation` (an evaluation's items, an evaluator's judge) are not production traffic and
 * are left out.
 */
function figuresQuery(workspaceId: string, range: TimeRange, actionId?: string): SQL {
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  const action = (alias: SQL) => (actionId ? sql` AND ${alias}.action_id = ${actionId}` : sql``);
  return sql`
    WITH g AS (
      SELECT ${dayOf(sql`g.created_at`)} AS day, g.action_id, g.latency_ms, g.num_input_tokens,
             g.num_output_tokens, (g.cost->>'generation')::float8 AS cost,
             EXISTS (SELECT 1 FROM feedback f WHERE f.generation_id = g.id AND NOT f.deleted) AS rated,
             (SELECT f.value FROM feedback f WHERE f.generation_id = g.id AND NOT f.deleted AND f.type = 'rating'
              ORDER BY f.created_at DESC LIMIT 1) AS rating
      FROM generations g
      WHERE g.workspace_id = ${workspaceId} AND g.created_at >= ${from} AND g.created_at < ${to}${action(sql`g`)}
        AND g.source <> 'evaluation'
    ), sums AS (
      SELECT day, action_id, count(*) AS runs, coalesce(sum(num_input_tokens), 0) AS input_tokens,
             coalesce(sum(num_output_tokens), 0) AS output_tokens, coalesce(sum(cost), 0) AS cost,
             count(*) FILTER (WHERE rated) AS with_feedback,
             count(*) FILTER (WHERE rating IN (${valueList(ratingValues.good)})) AS good_feedback,
             count(*) FILTER (WHERE rating IN (${valueList(ratingValues.bad)})) AS bad_feedback
      FROM g GROUP BY day, action_id
    ), latencies AS (
      SELECT day, action_id, array_agg(latency_ms ORDER BY latency_ms) AS latency_values,
             array_agg(runs ORDER BY latency_ms) AS latency_counts
      FROM (SELECT day, action_id, latency_ms, count(*)::int AS runs FROM g
            WHERE latency_ms IS NOT NULL GROUP BY day, action_id, latency_ms) AS each_latency
      GROUP BY day, action_id
    ), errors AS (
      SELECT ${dayOf(sql`r.created_at`)} AS day, r.action_id, count(*) AS errors
      FROM run_failures r
      WHERE r.workspace_id = ${workspaceId} AND r.created_at >= ${from} AND r.created_at < ${to}${action(sql`r`)}
        AND r.source <> 'evaluation'
      GROUP BY 1, 2
    )
    SELECT to_char(day, 'YYYY-MM-DD') AS day, action_id, coalesce(runs, 0) AS runs,
           coalesce(input_tokens, 0) AS input_tokens, coalesce(output_tokens, 0) AS output_tokens,
           coalesce(cost, 0) AS cost, coalesce(with_feedback, 0) AS with_feedback,
           coalesce(good_feedback, 0) AS good_feedback, coalesce(bad_feedback, 0) AS bad_feedback,
           coalesce(errors, 0) AS errors, coalesce(latency_values, '{}') AS latency_values,
           coalesce(latency_counts, '{}') AS latency_counts
    FROM sums LEFT JOIN latencies USING (day, action_id) FULL JOIN errors USING (day, action_id)`;
}

/** One evaluator's mean monitor score over one day's generations. */
export type DailyScore = { day: string; evaluatorId: string; name: string | null; mean: number; n: number };

/**
 * The dashboard's aggregates. Finished days are stored per Action in `generation_days` when first
 * asked for and read from there; the rest of a span (today, partial days at its edges) is computed
 * from the generations, on the `(workspace_id, created_at)` index.
 */

export function createStatisticsRepository(database: Database) {
  return {
    /** Monitors' daily mean scores per evaluator, by the day the generations were made (null scores left out). */
    async dailyScores(workspaceId: string, days: { first: string; last: string }, actionId?: string) {
      const rows = rowsOf<{
        day: string;
        evaluator_id: string;
        name: string | null;
        mean: number;
        n: number;
      }>(
        await database.execute(sql`
          SELECT score.day::text AS day, score.evaluator_id, evaluator.name,
            avg(score.score)::float8 AS mean, count(score.score)::int AS n
          FROM generation_scores score
          LEFT JOIN evaluators evaluator ON evaluator.id = score.evaluator_id
          WHERE score.workspace_id = ${workspaceId} AND score.day BETWEEN ${days.first}::date AND ${days.last}::date
            AND score.score IS NOT NULL ${actionId ? sql`AND score.action_id = ${actionId}` : sql``}
          GROUP BY score.day, score.evaluator_id, evaluator.name
          ORDER BY score.day, evaluator.name`),
      );
      return rows.map(
        (row): DailyScore => ({
          day: row.day,
          evaluatorId: row.evaluator_id,
          name: row.name,
          mean: Number(row.mean),
          n: row.n,
        }),
      );
    },

    /** The figures of a range computed from the generations now. */
    async figures(workspaceId: string, range: TimeRange, actionId?: string): Promise<DayActionFigures[]> {
      return rowsOf<FiguresRow>(await database.execute(figuresQuery(workspaceId, range, actionId))).map(
        figuresOf,
      );
    },

    /** The days of `days` whose stored rollup is current: computed after the day last changed. */
    async currentDays(workspaceId: string, days: string[]): Promise<Set<string>> {
      if (days.length === 0) return new Set();
      const result = await database.execute(sql`
        SELECT to_char(day, 'YYYY-MM-DD') AS day FROM generation_days_computed
        WHERE workspace_id = ${workspaceId} AND day = ANY(${dayArray(days)})
          AND (changed_at IS NULL OR computed_at > changed_at)`);
      return new Set(rowsOf<{ day: string }>(result).map((row) => row.day));
    },

    /**
     * Computes and stores the rollups of these whole days. `computed_at` is taken before the figures
     * are read, so a change committed after that read stamps a later `changed_at` and the day is
     * computed again; a change before it is in the figures.
     */
    async rollUp(workspaceId: string, days: string[]): Promise<void> {
      if (days.length === 0) return;
      const sorted = [...days].sort();
      const range = {
        from: new Date(`${sorted[0]}T00:00:00Z`),
        to: new Date(Date.parse(`${sorted.at(-1)}T00:00:00Z`) + 24 * 60 * 60_000),
      };
      await database.transaction(async (transaction) => {
        const [started] = rowsOf<{ at: string }>(
          await transaction.execute(sql`SELECT clock_timestamp()::text AS at`),
        );
        await transaction.execute(sql`
          DELETE FROM generation_days WHERE workspace_id = ${workspaceId} AND day = ANY(${dayArray(days)})`);
        await transaction.execute(sql`
          INSERT INTO generation_days (workspace_id, day, action_id, runs, input_tokens, output_tokens, cost,
            with_feedback, good_feedback, bad_feedback, errors, latency_values, latency_counts)
          SELECT ${workspaceId}, figures.day::date, figures.action_id, figures.runs, figures.input_tokens,
                 figures.output_tokens, figures.cost, figures.with_feedback, figures.good_feedback,
                 figures.bad_feedback, figures.errors, figures.latency_values, figures.latency_counts
          FROM (${figuresQuery(workspaceId, range)}) AS figures
          WHERE figures.day = ANY(${dayArray(days, 'text')})
          -- Two first readers of a day may compute it at once: the later one's figures stand.
          ON CONFLICT (workspace_id, day, action_id) DO UPDATE SET runs = excluded.runs,
            input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens,
            cost = excluded.cost, with_feedback = excluded.with_feedback,
            good_feedback = excluded.good_feedback, bad_feedback = excluded.bad_feedback, errors = excluded.errors,
            latency_values = excluded.latency_values, latency_counts = excluded.latency_counts`);
        await transaction.execute(sql`
          INSERT INTO generation_days_computed (workspace_id, day, computed_at)
          SELECT ${workspaceId}, unnest(${dayArray(days)}), ${started!.at}::timestamptz
          ON CONFLICT (workspace_id, day) DO UPDATE SET computed_at = excluded.computed_at`);
      });
    },

    /** The stored rollups of these days. */
    async rolledUp(workspaceId: string, days: string[], actionId?: string): Promise<DayActionFigures[]> {
      if (days.length === 0) return [];
      const action = actionId ? sql` AND action_id = ${actionId}` : sql``;
      const result = await database.execute(sql`
        SELECT to_char(day, 'YYYY-MM-DD') AS day, action_id, runs, input_tokens, output_tokens, cost,
               with_feedback, good_feedback, bad_feedback, errors, latency_values, latency_counts
        FROM generation_days
        WHERE workspace_id = ${workspaceId} AND day = ANY(${dayArray(days)})${action}`);
      return rowsOf<FiguresRow>(result).map(figuresOf);
    },

    /**
     * A generation of this time changed (feedback, an edit, a delete): its day's rollup, if any, is
     * stale. Written after the change is committed, with the clock of that moment.
     */
    async dayChanged(workspaceId: string, createdAt: Date): Promise<void> {
      await database.execute(sql`
        INSERT INTO generation_days_computed (workspace_id, day, computed_at, changed_at)
        VALUES (${workspaceId}, ${dayOf(sql`${createdAt.toISOString()}::timestamptz`)}::date, '-infinity',
                clock_timestamp())
        ON CONFLICT (workspace_id, day) DO UPDATE SET changed_at = clock_timestamp()`);
    },
  };
}

export type StatisticsRepository = ReturnType<typeof createStatisticsRepository>;
