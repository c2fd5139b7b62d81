import { ValidationError } from '../../errors.js';
import type { ActionFigures, DailyFigures, StatisticsRepository } from './statistics-repository.js';

/** The longest span one request may cover, and the span when none is given. */
const longestSpanDays = 366;
const defaultSpanDays = 30;
const dayMs = 24 * 60 * 60_000;

export type StatisticsRequest = { from?: Date; to?: Date; actionId?: string };

export type Statistics = { from: Date; to: Date; daily: DailyFigures[]; actions: ActionFigures[] };

export interface StatisticsService {
  /** Runs, tokens, cost and feedback per day, and latency per Action, over a span (default the last 30 days). */
  summary(workspaceId: string, request: StatisticsRequest): Promise<Statistics>;
}

export function createStatisticsService(
  repository: StatisticsRepository,
  requireAction: (workspaceId: string, actionId: string) => Promise<unknown>,
  now: () => Date = () => new Date(),
): StatisticsService {
  return {
    async summary(workspaceId, request) {
      const to = request.to ?? now();
      const from = request.from ?? new Date(to.getTime() - defaultSpanDays * dayMs);
      if (from >= to) throw new ValidationError('must be later than from', 'to');
      if (to.getTime() - from.getTime() > longestSpanDays * dayMs)
        throw new ValidationError(`the span may cover at most ${longestSpanDays} days`, 'from');
      if (request.actionId) await requireAction(workspaceId, request.actionId);
      const scope = { from, to, actionId: request.actionId };
      const [daily, actions] = await Promise.all([
        repository.daily(workspaceId, scope),
        repository.perAction(workspaceId, scope),
      ]);
      return { from, to, daily, actions };
    },
  };
}
