import { mean, meanInterval, percentile } from './intervals.js';
import type { PinnedEvaluator } from './tables.js';

/** One evaluator's figures over an evaluation's items: `mean` and `n` cover the non-null scores. */
export type EvaluatorSummary = {
  name: string;
  mean: number | null;
  ci_low: number | null;
  ci_high: number | null;
  n: number;
};

/** What an evaluation's summary says: per-evaluator figures, total cost and run latency. */
export type Report = {
  summary: Record<string, EvaluatorSummary>;
  cost: number;
  latency_ms: { p50: number | null; p95: number | null };
};

type ScoredItem = {
  scores: Record<string, number | null>;
  latencyMs: number | null;
  costUsd: number | null;
};

const rounded = (value: number) => Math.round(value * 1e6) / 1e6;

/** The summary of the items finished so far (all of them, once the evaluation has ended). */
export function reportOf(evaluators: PinnedEvaluator[], items: ScoredItem[]): Report {
  const summary: Record<string, EvaluatorSummary> = {};
  for (const evaluator of evaluators) {
    const values: number[] = [];
    for (const item of items) {
      const score = item.scores[evaluator.id];
      if (typeof score === 'number') values.push(score);
    }
    if (values.length === 0) {
      summary[evaluator.id] = { name: evaluator.name, mean: null, ci_low: null, ci_high: null, n: 0 };
      continue;
    }
    const interval = meanInterval(values);
    summary[evaluator.id] = {
      name: evaluator.name,
      mean: rounded(mean(values)),
      ci_low: rounded(interval.low),
      ci_high: rounded(interval.high),
      n: values.length,
    };
  }
  const latencies = Float64Array.from(
    items.flatMap((item) => (item.latencyMs === null ? [] : [item.latencyMs])),
  ).sort();
  const cost = items.reduce((total, item) => total + (item.costUsd ?? 0), 0);
  return {
    summary,
    cost: rounded(cost),
    latency_ms: {
      p50: latencies.length > 0 ? Math.round(percentile(latencies, 0.5)) : null,
      p95: latencies.length > 0 ? Math.round(percentile(latencies, 0.95)) : null,
    },
  };
}
