import { ValidationError } from '../../../errors.js';
import type {
  DailyScore,
  DayActionFigures,
  DayTotals,
  StatisticsRepository,
  TimeRange,
} from './statistics-repository.js';

/** The longest span one request may cover, and the span when none is given. */
const longestSpanDays = 366;
const defaultSpanDays = 30;
const dayMs = 24 * 60 * 60_000;
/**
 * A day is rolled up only this long after it ended: a run that started before midnight may still be
 * storing its generation with a time of that day.
 */
const settleMs = 10 * 60_000;

export type StatisticsRequest = { from?: Date; to?: Date; actionId?: string };

/** A day of the dashboard's series: every Action's totals of that day. */
export type DailyFigures = DayTotals;

export type ActionFigures = {
  actionId: string;
  runs: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  withFeedback: number;
  goodFeedback: number;
  badFeedback: number;
};

export type Statistics = {
  from: Date;
  to: Date;
  daily: DailyFigures[];
  actions: ActionFigures[];
  /** Monitors' daily mean scores (docs/evaluations.md#monitors). */
  scores: DailyScore[];
};

export interface StatisticsService {
  /** Runs, tokens, cost, feedback and errors per day, and latency per Action, over a span (default the last 30 days). */
  summary(workspaceId: string, request: StatisticsRequest): Promise<Statistics>;
  /** A generation of this time changed after it was stored: its day is summed again when next read. */
  generationChanged(workspaceId: string, createdAt: Date): Promise<void>;
}

const startOfDay = (time: number) => Math.floor(time / dayMs) * dayMs;
const dayName = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * The whole UTC days of a span that ended long enough ago to be rolled up, and the ranges around them
 * that are computed from the generations on each read (the partial edges and the recent part).
 */
export function splitSpan(range: TimeRange, now: Date): { days: string[]; live: TimeRange[] } {
  const wholeStart = startOfDay(range.from.getTime() + dayMs - 1);
  const wholeEnd = Math.min(startOfDay(range.to.getTime()), startOfDay(now.getTime() - settleMs));
  if (wholeStart >= wholeEnd) return { days: [], live: [range] };
  const days: string[] = [];
  for (let day = wholeStart; day < wholeEnd; day += dayMs) days.push(dayName(day));
  const live: TimeRange[] = [];
  if (range.from.getTime() < wholeStart) live.push({ from: range.from, to: new Date(wholeStart) });
  if (wholeEnd < range.to.getTime()) live.push({ from: new Date(wholeEnd), to: range.to });
  return { days, live };
}

/**
 * PostgreSQL's percentile_cont over a multiset given as ascending distinct values with counts: the
 * value at position p·(n−1), interpolated between its neighbours, to a thousandth (of a millisecond:
 * 0.95·3 is 2.8499999999999996 in floating point). Null when there are no values.
 */
export function percentileOf(values: number[], counts: number[], fraction: number): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const position = fraction * (total - 1);
  const valueAt = (rank: number) => {
    let seen = 0;
    for (let index = 0; index < values.length; index++) {
      seen += counts[index]!;
      if (rank < seen) return values[index]!;
    }
    return values.at(-1)!;
  };
  const lower = Math.floor(position);
  const below = valueAt(lower);
  const exact = lower === position ? below : below + (position - lower) * (valueAt(lower + 1) - below);
  return Math.round(exact * 1000) / 1000;
}

/** Merges latency distributions (each ascending distinct values with counts) into one. */
function mergeLatencies(rows: DayActionFigures[]): { values: number[]; counts: number[] } {
  const merged = new Map<number, number>();
  for (const row of rows) {
    row.latencyValues.forEach((value, index) => {
      merged.set(value, (merged.get(value) ?? 0) + row.latencyCounts[index]!);
    });
  }
  const values = [...merged.keys()].sort((left, right) => left - right);
  return { values, counts: values.map((value) => merged.get(value)!) };
}

/** The dashboard's series from per-day, per-Action figures. */
export function summarise(rows: DayActionFigures[]): Pick<Statistics, 'daily' | 'actions'> {
  const days = new Map<string, DailyFigures>();
  const byAction = new Map<string, DayActionFigures[]>();
  for (const row of rows) {
    const day = days.get(row.day) ?? {
      day: row.day,
      runs: 0,
      inputTokens: 0,
      outputTokens: 0,
      cost: 0,
      withFeedback: 0,
      goodFeedback: 0,
      badFeedback: 0,
      errors: 0,
    };
    day.runs += row.runs;
    day.inputTokens += row.inputTokens;
    day.outputTokens += row.outputTokens;
    day.cost += row.cost;
    day.withFeedback += row.withFeedback;
    day.goodFeedback += row.goodFeedback;
    day.badFeedback += row.badFeedback;
    day.errors += row.errors;
    days.set(row.day, day);
    // A traced model call that names no Action counts in the day, not in any Action's figures.
    if (row.actionId !== null) byAction.set(row.actionId, [...(byAction.get(row.actionId) ?? []), row]);
  }
  const actions = [...byAction.entries()]
    .map(([actionId, actionRows]): ActionFigures => {
      const { values, counts } = mergeLatencies(actionRows);
      return {
        actionId,
        runs: actionRows.reduce((sum, row) => sum + row.runs, 0),
        latencyP50Ms: percentileOf(values, counts, 0.5),
        latencyP95Ms: percentileOf(values, counts, 0.95),
        withFeedback: actionRows.reduce((sum, row) => sum + row.withFeedback, 0),
        goodFeedback: actionRows.reduce((sum, row) => sum + row.goodFeedback, 0),
        badFeedback: actionRows.reduce((sum, row) => sum + row.badFeedback, 0),
      };
    })
    .filter((action) => action.runs > 0)
    .sort((left, right) => right.runs - left.runs || left.actionId.localeCompare(right.actionId));
  return { daily: [...days.values()].sort((left, right) => left.day.localeCompare(right.day)), actions };
}

export function createStatisticsService(dependencies: {
  repository: StatisticsRepository;
  requireAction: (workspaceId: string, actionId: string) => Promise<unknown>;
  now?: () => Date;
}): StatisticsService {
  const { repository, requireAction, now = () => new Date() } = dependencies;
  return {
    async summary(workspaceId, request) {
      const to = request.to ?? now();
      const from = request.from ?? new Date(to.getTime() - defaultSpanDays * dayMs);
      if (from >= to) throw new ValidationError('to', 'must be later than from');
      if (to.getTime() - from.getTime() > longestSpanDays * dayMs)
        throw new ValidationError('from', `the span may cover at most ${longestSpanDays} days`);
      if (request.actionId) await requireAction(workspaceId, request.actionId);
      const { days, live } = splitSpan({ from, to }, now());
      const current = await repository.currentDays(workspaceId, days);
      await repository.rollUp(
        workspaceId,
        days.filter((day) => !current.has(day)),
      );
      const rows = (
        await Promise.all([
          repository.rolledUp(workspaceId, days, request.actionId),
          ...live.map((range) => repository.figures(workspaceId, range, request.actionId)),
        ])
      ).flat();
      const scores = await repository.dailyScores(
        workspaceId,
        {
          first: from.toISOString().slice(0, 10),
          last: new Date(to.getTime() - 1).toISOString().slice(0, 10),
        },
        request.actionId,
      );
      return { from, to, ...summarise(rows), scores };
    },

    generationChanged(workspaceId, createdAt) {
      return repository.dayChanged(workspaceId, createdAt);
    },
  };
}
