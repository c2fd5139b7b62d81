import { describe, expect, it } from 'vitest';
import { nextAttemptAt, retryDelayMs } from '../../src/features/edges/webhooks/retry-schedule.js';

// The retry schedule of docs/webhooks.md#delivery: within 10 s, within 60 s of that, then doubling
// up to hourly, for 24 hours.
describe('webhook retry schedule', () => {
  it('retries within 10 s, then within 60 s, then doubles up to an hour', () => {
    const delays = Array.from({ length: 12 }, (_, index) => retryDelayMs(index + 1, 5_000));
    expect(delays[0]).toBeLessThanOrEqual(10_000);
    expect(delays[1]).toBeLessThanOrEqual(60_000);
    for (let index = 2; index < delays.length; index++) {
      expect(delays[index]).toBeGreaterThanOrEqual(delays[index - 1]!);
      expect(delays[index]).toBeLessThanOrEqual(60 * 60_000);
    }
    expect(delays.at(-1)).toBe(60 * 60_000);
  });

  it('gives up once the next attempt would fall past 24 hours from the first', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    let now = start;
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const next = nextAttemptAt(attempts, start, now, 5_000);
      if (!next) break;
      now = next;
    }
    expect(now.getTime() - start.getTime()).toBeLessThanOrEqual(24 * 60 * 60_000);
    expect(now.getTime() - start.getTime()).toBeGreaterThan(23 * 60 * 60_000);
    // About 30 attempts in the day: a receiver that is down for a night gets every event when it is back.
    expect(attempts).toBeGreaterThan(25);
    expect(attempts).toBeLessThan(40);
  });
});
