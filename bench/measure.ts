/** Latency samples in milliseconds → percentiles. */
export function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/** Runs `call` `total` times with at most `concurrency` in flight; returns each call's latency. */
export async function measure(
  call: () => Promise<void>,
  total: number,
  concurrency: number,
): Promise<number[]> {
  const latencies: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started += 1;
      const begin = performance.now();
      await call();
      latencies.push(performance.now() - begin);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return latencies;
}

export function format(milliseconds: number): string {
  return `${milliseconds.toFixed(2)} ms`;
}

/**
 * Measures two calls in alternating rounds, so that noise from a shared machine (other processes,
 * frequency changes) lands on both alike instead of on whichever ran second. Besides all samples it
 * returns each round's difference of medians: their median is an overhead figure that a noisy spell
 * during one round cannot move much.
 */
export async function measurePair(
  baseline: () => Promise<void>,
  candidate: () => Promise<void>,
  options: { total: number; concurrency: number; rounds: number },
): Promise<{ baseline: number[]; candidate: number[]; roundOverheads: number[] }> {
  const perRound = Math.ceil(options.total / options.rounds);
  const result = { baseline: [] as number[], candidate: [] as number[], roundOverheads: [] as number[] };
  for (let round = 0; round < options.rounds; round += 1) {
    const baselineRound = await measure(baseline, perRound, options.concurrency);
    const candidateRound = await measure(candidate, perRound, options.concurrency);
    result.baseline.push(...baselineRound);
    result.candidate.push(...candidateRound);
    result.roundOverheads.push(percentile(candidateRound, 0.5) - percentile(baselineRound, 0.5));
  }
  return result;
}
