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
 * frequency changes) lands on both alike instead of on whichever ran second.
 */
export async function measurePair(
  baseline: () => Promise<void>,
  candidate: () => Promise<void>,
  options: { total: number; concurrency: number; rounds: number },
): Promise<{ baseline: number[]; candidate: number[] }> {
  const perRound = Math.ceil(options.total / options.rounds);
  const result = { baseline: [] as number[], candidate: [] as number[] };
  for (let round = 0; round < options.rounds; round += 1) {
    result.baseline.push(...(await measure(baseline, perRound, options.concurrency)));
    result.candidate.push(...(await measure(candidate, perRound, options.concurrency)));
  }
  return result;
}
