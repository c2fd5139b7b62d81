// Spans are stored in one partition per day of their start (docs/operations.md#traces): a day's
// spans sit together on disk, a trace's lookup reads one or two days' indexes, and retention drops a
// whole day's table in one statement instead of deleting rows one by one.

export const nanosPerDay = 86_400_000_000_000n;

/** The day (since the epoch, UTC) a time in nanoseconds falls on. */
export function dayOf(unixNano: bigint): number {
  return Number(unixNano / nanosPerDay);
}

/** The table that holds one day's spans. */
export function partitionName(day: number): string {
  return `spans_d${day}`;
}

/**
 * The days a span may start on: from the first day still kept to tomorrow (a client's clock may run
 * ahead). A span outside is refused with its reason, so no partition is made for a stray clock.
 */
export function acceptedDays(now: Date, retentionDays: number) {
  const today = Math.floor(now.getTime() / 86_400_000);
  return { first: today - retentionDays, last: today + 1 };
}
