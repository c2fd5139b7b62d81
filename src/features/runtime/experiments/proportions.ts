/** Two-valued ratings whose first value is the positive one (compared case-insensitively). */
const ratingPairs: [string, string][] = [
  ['positive', 'negative'],
  ['thumbs_up', 'thumbs_down'],
  ['up', 'down'],
  ['good', 'bad'],
  ['yes', 'no'],
  ['like', 'dislike'],
  ['true', 'false'],
  ['1', '0'],
];

/** The positive value when `values` are exactly the two of a known rating pair (in any case). */
export function positiveValueOf(values: string[]): string | undefined {
  const distinct = [...new Set(values)];
  if (distinct.length !== 2) return undefined;
  for (const [positive, negative] of ratingPairs) {
    const lower = distinct.map((value) => value.toLowerCase());
    if (lower.includes(positive) && lower.includes(negative)) {
      return distinct[lower.indexOf(positive)];
    }
  }
  return undefined;
}

/**
 * The share of `successes` in `trials` with its 95% Wilson score interval, which stays inside
 * [0, 1] and behaves at small counts where the normal approximation does not.
 */
export function proportionWithInterval(successes: number, trials: number) {
  if (trials === 0) return { rate: null, low: null, high: null, trials };
  const z = 1.959964;
  const rate = successes / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = (rate + (z * z) / (2 * trials)) / denominator;
  const margin =
    (z * Math.sqrt((rate * (1 - rate)) / trials + (z * z) / (4 * trials * trials))) / denominator;
  return { rate, low: Math.max(0, centre - margin), high: Math.min(1, centre + margin), trials };
}
