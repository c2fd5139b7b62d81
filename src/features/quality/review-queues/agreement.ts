// Agreement between reviewers (docs/review.md#agreement). Each function takes the answers of one
// question grouped by item: `units[i]` holds the answers the reviews of item i gave.

type Value = boolean | number | string;

/** Σ_{i≠j} (v_i − v_j)² over ordered pairs of `values`, as 2(n·Σv² − (Σv)²). */
function squaredDifferences(values: number[]): number {
  let sum = 0;
  let squares = 0;
  for (const value of values) {
    sum += value;
    squares += value * value;
  }
  return 2 * (values.length * squares - sum * sum);
}

/**
 * The share of agreeing pairs: over every item, every pair of its reviews, pooled (an item of three
 * reviews adds three pairs). Null when no item has two answers.
 */
export function percentAgreement(units: Value[][]): number | null {
  let pairs = 0;
  let agreeing = 0;
  for (const unit of units) {
    const counts = new Map<Value, number>();
    for (const value of unit) counts.set(value, (counts.get(value) ?? 0) + 1);
    pairs += (unit.length * (unit.length - 1)) / 2;
    for (const count of counts.values()) agreeing += (count * (count - 1)) / 2;
  }
  return pairs === 0 ? null : agreeing / pairs;
}

/**
 * Fleiss' kappa (Fleiss, 1971) for items rated by the same number n of reviewers into categories:
 * P̄ = mean over items of Σ_j n_ij(n_ij − 1) / (n(n − 1)), P̄e = Σ_j p_j², κ = (P̄ − P̄e) / (1 − P̄e).
 * Items of another size are left out by the caller. Null under 2 items, or when every answer is the
 * same category (P̄e = 1: chance alone explains the agreement, κ is undefined).
 */
export function fleissKappa(units: Value[][]): number | null {
  if (units.length < 2) return null;
  const raters = units[0]!.length;
  if (raters < 2 || units.some((unit) => unit.length !== raters)) return null;
  const totals = new Map<Value, number>();
  let observed = 0;
  for (const unit of units) {
    const counts = new Map<Value, number>();
    for (const value of unit) counts.set(value, (counts.get(value) ?? 0) + 1);
    let agreeingPairs = 0;
    for (const [value, count] of counts) {
      agreeingPairs += count * (count - 1);
      totals.set(value, (totals.get(value) ?? 0) + count);
    }
    observed += agreeingPairs / (raters * (raters - 1));
  }
  observed /= units.length;
  const answers = units.length * raters;
  let expected = 0;
  for (const count of totals.values()) expected += (count / answers) ** 2;
  if (expected >= 1) return null;
  return (observed - expected) / (1 - expected);
}

/**
 * Krippendorff's alpha with the interval metric (Krippendorff, 2011): α = 1 − D_o / D_e over the
 * pairable values (items with at least two), where D_o = (1/n) Σ_u Σ_{i≠j∈u} (v_i − v_j)² / (m_u − 1)
 * and D_e = Σ_{i≠j} (v_i − v_j)² / (n(n − 1)) over all n pairable values. Items may have different
 * numbers of reviews. Null under 2 items, or when every value is the same (D_e = 0).
 */
export function krippendorffAlpha(units: number[][]): number | null {
  const pairable = units.filter((unit) => unit.length >= 2);
  if (pairable.length < 2) return null;
  const all = pairable.flat();
  const n = all.length;
  let disagreement = 0;
  for (const unit of pairable) disagreement += squaredDifferences(unit) / (unit.length - 1);
  const observed = disagreement / n;
  const expected = squaredDifferences(all) / (n * (n - 1));
  if (expected === 0) return null;
  return 1 - observed / expected;
}

/** Pearson's correlation coefficient; null under 2 pairs or when either side does not vary. */
export function pearson(pairs: Array<[number, number]>): number | null {
  const n = pairs.length;
  if (n < 2) return null;
  let sumX = 0;
  let sumY = 0;
  for (const [x, y] of pairs) {
    sumX += x;
    sumY += y;
  }
  const meanX = sumX / n;
  const meanY = sumY / n;
  let covariance = 0;
  let varianceX = 0;
  let varianceY = 0;
  for (const [x, y] of pairs) {
    covariance += (x - meanX) * (y - meanY);
    varianceX += (x - meanX) ** 2;
    varianceY += (y - meanY) ** 2;
  }
  if (varianceX === 0 || varianceY === 0) return null;
  return covariance / Math.sqrt(varianceX * varianceY);
}

/** The answer most reviews gave; undefined on a tie (a tie is no majority). */
export function majority(values: Value[]): Value | undefined {
  const counts = new Map<Value, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: Value | undefined;
  let bestCount = 0;
  let tied = false;
  for (const [value, count] of counts) {
    if (count > bestCount) {
      best = value;
      bestCount = count;
      tied = false;
    } else if (count === bestCount) tied = true;
  }
  return tied ? undefined : best;
}
