// The intervals of evaluation summaries and comparisons (docs/evaluations.md#intervals): 95%
// intervals of a mean, and of the mean difference of paired scores. Resampling uses a fixed seed,
// so the same scores always give the same interval.

/** z for a two-sided 95% interval. */
const z95 = 1.959963984540054;
/** Bootstrap resamples: the 2.5th and 97.5th percentiles of 2,000 means are stable to about 0.005. */
const resamples = 2_000;
const seed = 0x5eed;

export type Interval = { low: number; high: number };

export function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let index = 0; index < values.length; index++) sum += values[index]!;
  return sum / values.length;
}

/** The value below which a share `fraction` of the sorted values lie, interpolated between ranks. */
export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = (sorted.length - 1) * fraction;
  const below = Math.floor(rank);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (rank - below);
}

/**
 * Wilson's score interval of a proportion: unlike mean ± 1.96·SE it stays inside [0, 1] and keeps
 * its coverage when nearly every score is 0 or nearly every one is 1.
 */
export function wilsonInterval(successes: number, n: number): Interval {
  const proportion = successes / n;
  const denominator = 1 + (z95 * z95) / n;
  const centre = (proportion + (z95 * z95) / (2 * n)) / denominator;
  const half =
    (z95 * Math.sqrt((proportion * (1 - proportion)) / n + (z95 * z95) / (4 * n * n))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * The percentile bootstrap interval of the mean: resample with replacement, take the middle 95%. The
 * draws come from xorshift32 inlined in the loop (a comparison of two 10,000-item runs draws 20
 * million indices per evaluator; a generator behind a call costs several times as much).
 */
export function bootstrapInterval(values: ArrayLike<number>): Interval {
  const n = values.length;
  const scores = Float64Array.from(values);
  const means = new Float64Array(resamples);
  const scale = n / 4_294_967_296;
  let state = seed;
  for (let round = 0; round < resamples; round++) {
    let sum = 0;
    for (let draw = 0; draw < n; draw++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      sum += scores[((state >>> 0) * scale) | 0]!;
    }
    means[round] = sum / n;
  }
  means.sort();
  return { low: percentile(means, 0.025), high: percentile(means, 0.975) };
}

/** A 95% interval of the mean score: Wilson's when every score is 0 or 1, else the bootstrap's. */
export function meanInterval(values: ArrayLike<number>): Interval {
  if (values.length === 0) return { low: Number.NaN, high: Number.NaN };
  let successes = 0;
  let binary = true;
  for (let index = 0; index < values.length; index++) {
    const value = values[index]!;
    if (value === 1) successes++;
    else if (value !== 0) binary = false;
  }
  return binary ? wilsonInterval(successes, values.length) : bootstrapInterval(values);
}
