import type { Logger } from 'pino';
import { afterEach, expect, it, vi } from 'vitest';
import { throttledErrorLog } from '../../src/platform/redis-connection.js';

afterEach(() => vi.useRealTimers());

/** A logger that keeps what `warn` received. */
function recordingLogger() {
  const warnings: unknown[][] = [];
  return { warnings, logger: { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger };
}

it('logs a repeated connection error once per 30 s, and each different error at once', () => {
  vi.useFakeTimers({ now: new Date('2026-11-23T10:00:00Z') });
  const { warnings, logger } = recordingLogger();
  const report = throttledErrorLog(logger, 'Redis connection error; retrying', { connection: 'streams' });
  for (let retry = 0; retry < 20; retry++) {
    report(new Error('connect ECONNREFUSED 127.0.0.1:6390'));
    vi.advanceTimersByTime(1_000);
  }
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toEqual([
    { connection: 'streams', err: 'connect ECONNREFUSED 127.0.0.1:6390' },
    'Redis connection error; retrying',
  ]);
  report(new Error('READONLY You cannot write against a read only replica.'));
  expect(warnings).toHaveLength(2);
  vi.advanceTimersByTime(10_000);
  report(new Error('connect ECONNREFUSED 127.0.0.1:6390'));
  expect(warnings).toHaveLength(3);
});
