// Agreement between reviewers (docs/review.md#agreement), from the sums the database keeps of one
// question's answers (answer-counts.ts): m is an item's number of answers to the question, n_c how
// many of them are answer c, v an answer's value (a scale's number).

/** One question's answers, summed over its items. */
export type AnswerSums = {
  /** Over the items with m ≥ 2 (pairable): their number, Σ m(m − 1) and Σ_c n_c(n_c − 1) (ordered pairs). */
  items: number;
  pairs: number;
  agreeingPairs: number;
  /** Σ m, Σ v, Σ v² and Σ_items (m·Σv² − (Σv)²) / (m − 1), over the pairable items. */
  values: number;
  total: number;
  squares: number;
  withinItems: number;
  /** Over the items with exactly `raters` answers (Fleiss): their number, Σ_c n_c(n_c − 1), and each answer's count. */
  raters: number;
  fullItems: number;
  fullAgreeingPairs: number;
  categoryCounts: number[];
};

/** The sums of a question nobody answered yet. */
export function noAnswers(raters: number): AnswerSums {
  return {
    items: 0,
    pairs: 0,
    agreeingPairs: 0,
    values: 0,
    total: 0,
    squares: 0,
    withinItems: 0,
    raters,
    fullItems: 0,
    fullAgreeingPairs: 0,
    categoryCounts: [],
  };
}

/** One question's answers against an evaluator's scores, over the items it scored. */
export type EvaluatorSums = {
  items: number;
  /** Items whose majority answer (more than half) is the score read as yes (≥ 0.5). */
  majorityAgreeing: number;
  /** Pearson's sums of (x, y) = (score, mean answer), each item weighing 1 in total. */
  weight: number;
  x: number;
  y: number;
  xx: number;
  yy: number;
  xy: number;
};

/**
 * The share of agreeing pairs: over every item, every pair of its answers, pooled (an item of three
 * answers adds three pairs). Null when no item has two answers.
 */
export function percentAgreement(sums: AnswerSums): number | null {
  return sums.pairs === 0 ? null : sums.agreeingPairs / sums.pairs;
}

/**
 * Fleiss' kappa (Fleiss, 1971) for items rated by the same number n of reviewers into categories:
 * P̄ = mean over items of Σ_c n_c(n_c − 1) / (n(n − 1)), P̄e = Σ_c p_c², κ = (P̄ − P̄e) / (1 − P̄e).
 * Only the items with exactly n answers count. Null under 2 items, or when every answer is the same
 * category (P̄e = 1: chance alone explains the agreement, κ is undefined).
 */
export function fleissKappa(sums: AnswerSums): number | null {
  const { raters, fullItems } = sums;
  if (fullItems < 2 || raters < 2) return null;
  const observed = sums.fullAgreeingPairs / (raters * (raters - 1)) / fullItems;
  const answers = fullItems * raters;
  let expected = 0;
  for (const count of sums.categoryCounts) expected += (count / answers) ** 2;
  if (expected >= 1) return null;
  return (observed - expected) / (1 - expected);
}

/**
 * Krippendorff's alpha with the interval metric (Krippendorff, 2011): α = 1 − D_o / D_e over the
 * pairable values (items with at least two), where D_o = (1/N) Σ_u Σ_{i≠j∈u} (v_i − v_j)² / (m_u − 1)
 * and D_e = Σ_{i≠j} (v_i − v_j)² / (N(N − 1)) over all N pairable values; Σ_{i≠j} (v_i − v_j)² over a
 * set of m values is 2(m·Σv² − (Σv)²). Items may have different numbers of answers. Null under 2
 * items, or when every value is the same (D_e = 0).
 */
export function krippendorffAlpha(sums: AnswerSums): number | null {
  if (sums.items < 2) return null;
  const count = sums.values;
  const observed = (2 * sums.withinItems) / count;
  const expected = (2 * (count * sums.squares - sums.total * sums.total)) / (count * (count - 1));
  if (expected <= 0) return null;
  return 1 - observed / expected;
}

/** Share of the scored items whose majority answer is the evaluator's; null when it scored none. */
export function majorityAgreement(sums: EvaluatorSums): number | null {
  return sums.items === 0 ? null : sums.majorityAgreeing / sums.items;
}

/**
 * Pearson's correlation coefficient from weighted sums; null under 2 items or when either side does
 * not vary (a variance within rounding of zero: the weights are fractions).
 */
export function pearson(sums: EvaluatorSums): number | null {
  const { weight: n, x, y, xx, yy, xy } = sums;
  if (sums.items < 2) return null;
  const varianceX = n * xx - x * x;
  const varianceY = n * yy - y * y;
  const rounding = 1e-9;
  if (varianceX <= rounding * n * xx || varianceY <= rounding * n * yy) return null;
  return (n * xy - x * y) / Math.sqrt(varianceX * varianceY);
}
