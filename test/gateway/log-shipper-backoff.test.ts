import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { CompletedExchange } from '../../src/gateway/interaction.js';
import {
  createLogShipper,
  type ShipperEvents,
  type SpooledInteraction,
} from '../../src/gateway/log-shipper.js';
import type { ServiceClient } from '../../src/gateway/service-client.js';
import { openSpool } from '../../src/gateway/spool.js';
import { temporaryDirectory } from '../helpers/test-app.js';

// The shipper's timing with fake timers: each wait is checked to the millisecond, and a test that
// covers minutes of backoff runs in milliseconds.
beforeEach(() => vi.useFakeTimers({ now: new Date('2026-11-23T10:00:00Z') }));
afterEach(() => vi.useRealTimers());

function exchange(): CompletedExchange {
  return {
    serviceKey: 'lec_shipper_key',
    actionGuid: randomUUID(),
    requestBody: Buffer.from(
      JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    ),
    responseChunks: [
      Buffer.from(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'hello' } }] })),
    ],
    status: 200,
    contentType: 'application/json',
    latencyMs: 12,
    interrupted: false,
    upstreamHost: 'upstream.test',
  };
}

/** A service that is down (connection refused) for its first `failures` batches. */
function serviceDownFor(failures: number) {
  const sends: number[] = [];
  const service = {
    canLog: async () => true,
    logBatch: async () => {
      sends.push(Date.now());
      if (sends.length <= failures) throw new Error('connect ECONNREFUSED 127.0.0.1:4000');
    },
  } as unknown as ServiceClient;
  return { service, sends };
}

function recordingEvents() {
  const log = { sent: 0, dropped: [] as [string, number][], warnings: [] as string[] };
  const events: ShipperEvents = {
    sent: (count) => {
      log.sent += count;
    },
    dropped: (reason, count) => void log.dropped.push([reason, count]),
    depth: () => {},
    warn: (_data, message) => void log.warnings.push(message),
  };
  return { log, events };
}

const newSpool = () =>
  openSpool<SpooledInteraction>({
    directory: temporaryDirectory(),
    maximumBytes: 1024 * 1024,
    warn: () => {},
  });

const gaps = (times: number[]) => times.slice(1).map((time, index) => time - times[index]!);

it('waits 250 ms after the first failure and doubles the wait after each further one', async () => {
  const { service, sends } = serviceDownFor(5);
  const { log, events } = recordingEvents();
  const shipper = createLogShipper({ service, events, spool: newSpool(), queueLimit: 100 });
  shipper.record(exchange());
  await vi.advanceTimersByTimeAsync(10_000);
  expect(gaps(sends)).toEqual([250, 500, 1_000, 2_000, 4_000]);
  expect(log.sent).toBe(1);
  expect(log.dropped).toEqual([]);
  // One warning when the service goes away, not one per retry.
  expect(log.warnings).toEqual(['service unavailable; logs wait']);
  expect(shipper.depth()).toBe(0);
});

it('caps the wait at 30 s, and keeps the entry (spooled) however long the service stays down', async () => {
  const { service, sends } = serviceDownFor(Number.POSITIVE_INFINITY);
  const { log, events } = recordingEvents();
  const spool = newSpool();
  const shipper = createLogShipper({ service, events, spool, queueLimit: 100 });
  shipper.record(exchange());
  await vi.advanceTimersByTimeAsync(10 * 60_000);
  const waits = gaps(sends);
  expect(waits.slice(0, 9)).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  expect(waits.slice(9).every((wait) => wait === 30_000)).toBe(true);
  expect(log.dropped).toEqual([]);
  expect(shipper.depth()).toBe(1);
  expect(spool.pendingBytes()).toBeGreaterThan(0);
});

it('sends again at once once the service is back: a success resets the backoff', async () => {
  const { service, sends } = serviceDownFor(3);
  const { log, events } = recordingEvents();
  const shipper = createLogShipper({ service, events, spool: newSpool(), queueLimit: 100 });
  shipper.record(exchange());
  await vi.advanceTimersByTimeAsync(5_000);
  expect(log.sent).toBe(1);
  const before = sends.length;
  shipper.record(exchange());
  // The next entry goes out after the usual 50 ms flush interval, not after a backoff.
  await vi.advanceTimersByTimeAsync(50);
  expect(sends).toHaveLength(before + 1);
  expect(log.sent).toBe(2);
});
