/** How long a delivery is retried before it is given up as `failed`. */
export const retryWindowMs = 24 * 60 * 60 * 1000;

/** The longest wait between two attempts. */
const longestDelayMs = 60 * 60 * 1000;

/**
 * The wait after a delivery's `attempts`-th failed attempt: the first retry within 10 s, the
 * second within 60 s of it, then doubling up to hourly. `baseMs` (5 s by default,
 * `LECTERN_WEBHOOK_RETRY_BASE_MS`) scales the whole schedule.
 */
export function retryDelayMs(attempts: number, baseMs: number): number {
  if (attempts <= 1) return baseMs;
  if (attempts === 2) return baseMs * 6;
  return Math.min(baseMs * 12 * 2 ** (attempts - 3), longestDelayMs);
}

/** When to try a delivery again, or undefined when its 24 hours are over (it has failed). */
export function nextAttemptAt(
  attempts: number,
  retriesFrom: Date,
  now: Date,
  baseMs: number,
): Date | undefined {
  const next = new Date(now.getTime() + retryDelayMs(attempts, baseMs));
  return next.getTime() - retriesFrom.getTime() > retryWindowMs ? undefined : next;
}
