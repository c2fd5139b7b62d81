import type { PairedOutputs, PairedScores } from './comparison-repository.js';
import { bootstrapInterval, mean } from './intervals.js';
import type { EvaluationRow } from './repository.js';

export type EvaluatorComparison = {
  name: string;
  base_mean: number | null;
  candidate_mean: number | null;
  delta: number | null;
  ci_low: number | null;
  ci_high: number | null;
  improved: number;
  regressed: number;
  unchanged: number;
};

export type ComparedItem = {
  item: string;
  input: unknown;
  base_output: string | null;
  candidate_output: string | null;
  scores: Record<string, { base: number | null; candidate: number | null }>;
};

export type Comparison = {
  evaluators: Record<string, EvaluatorComparison>;
  /** The first `limit` items, regressions first, with their score pairs. */
  ranked: { itemId: string; scores: ComparedItem['scores'] }[];
  /** Items whose score fell on at least one evaluator (a release gate's `max_regressions` counts these). */
  regressedItems: number;
};

const rounded = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * Two evaluations of one dataset version, item by item, on the evaluators both ran: the mean
 * difference (candidate − base) over the items both scored, with a paired bootstrap 95% interval,
 * and the items that rose or fell. Items come regressions first: the largest total fall first.
 */
export function compare(
  base: EvaluationRow,
  candidate: EvaluationRow,
  pairs: PairedScores[],
  options: { limit: number; intervals: boolean },
): Comparison {
  const { limit } = options;
  const candidateIds = new Set(candidate.evaluators.map((evaluator) => evaluator.id));
  const shared = base.evaluators.filter((evaluator) => candidateIds.has(evaluator.id));
  const change = new Float64Array(pairs.length);
  const fell = new Uint8Array(pairs.length);
  const evaluators: Record<string, EvaluatorComparison> = {};
  for (const evaluator of shared) {
    const baseScores: number[] = [];
    const candidateScores: number[] = [];
    const differences: number[] = [];
    let improved = 0;
    let regressed = 0;
    pairs.forEach((pair, index) => {
      const before = pair.baseScores[evaluator.id];
      const after = pair.candidateScores[evaluator.id];
      if (typeof before !== 'number' || typeof after !== 'number') return;
      baseScores.push(before);
      candidateScores.push(after);
      differences.push(after - before);
      change[index]! += after - before;
      if (after > before) improved++;
      if (after < before) {
        regressed++;
        fell[index] = 1;
      }
    });
    // A release gate counts regressions only: it skips the resampling.
    const interval = options.intervals && differences.length > 0 ? bootstrapInterval(differences) : undefined;
    evaluators[evaluator.id] = {
      name: evaluator.name,
      base_mean: baseScores.length > 0 ? rounded(mean(baseScores)) : null,
      candidate_mean: candidateScores.length > 0 ? rounded(mean(candidateScores)) : null,
      delta: differences.length > 0 ? rounded(mean(differences)) : null,
      ci_low: interval ? rounded(interval.low) : null,
      ci_high: interval ? rounded(interval.high) : null,
      improved,
      regressed,
      unchanged: differences.length - improved - regressed,
    };
  }
  const order = pairs.map((_pair, index) => index);
  order.sort(
    (first, second) => fell[second]! - fell[first]! || change[first]! - change[second]! || first - second,
  );
  const ranked = order.slice(0, limit).map((index) => {
    const pair = pairs[index]!;
    return {
      itemId: pair.itemId,
      scores: Object.fromEntries(
        shared.map((evaluator) => [
          evaluator.id,
          {
            base: pair.baseScores[evaluator.id] ?? null,
            candidate: pair.candidateScores[evaluator.id] ?? null,
          },
        ]),
      ),
    };
  });
  return { evaluators, ranked, regressedItems: fell.reduce((total, value) => total + value, 0) };
}

/** The ranked items with their inputs and outputs, in the ranking's order. */
export function comparedItems(ranked: Comparison['ranked'], outputs: PairedOutputs[]): ComparedItem[] {
  const byItem = new Map(outputs.map((each) => [each.itemId, each]));
  return ranked.map(({ itemId, scores }) => {
    const shown = byItem.get(itemId);
    return {
      item: itemId,
      input: shown?.input ?? null,
      base_output: shown?.baseOutput ?? null,
      candidate_output: shown?.candidateOutput ?? null,
      scores,
    };
  });
}
