import { createHash } from 'node:crypto';
import { type CompletedExchange, type DataRecord, toDataRecord } from './interaction.js';
import { type ServiceClient, ServiceRejectedError } from './service-client.js';

type Entry = { key: string; record: DataRecord; attempts: number; bytes: number };

/** What the shipper reports: counts for the metrics and lines for the gateway's log. */
export type ShipperEvents = {
  sent(count: number): void;
  dropped(reason: string, count: number): void;
  depth(entries: number, bytes: number): void;
  warn(data: Record<string, unknown>, message: string): void;
};

export type LogShipperOptions = {
  service: ServiceClient;
  events: ShipperEvents;
  /** Entries waiting at most; beyond it new interactions are dropped (and counted). */
  queueLimit: number;
  /** Bytes of entries waiting at most (their JSON), the same way. */
  queueBytes?: number;
  /** Characters kept of each logged text. */
  textLimit?: number;
  batchSize?: number;
  flushIntervalMs?: number;
  /** Sends of one entry before it is dropped while the service keeps failing. */
  maximumAttempts?: number;
  /** How long a key-and-Action verdict is trusted. */
  validityMs?: number;
};

/** A short, one-way name for a key in the gateway's own log: never the key itself. */
export function keyFingerprint(key: string): string {
  return `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

/** Where the verdict on a key and an Action is kept: by the key's fingerprint, never the key. */
const verdictKey = (key: string, action: string) => `${keyFingerprint(key)}:${action}`;

/**
 * Ships interactions to the service off the hot path (docs/api.md#how-the-parts-behave): queued when the response has
 * ended, converted to data records, checked (is the key valid, can it see the Action? cached), and
 * sent in batches per key. While the service is down, batches wait with exponential backoff and are
 * dropped after `maximumAttempts`; the queue is bounded, so memory never grows without bound.
 */
export function createLogShipper(options: LogShipperOptions) {
  const { service, events } = options;
  const batchSize = options.batchSize ?? 200;
  const flushIntervalMs = options.flushIntervalMs ?? 50;
  const maximumAttempts = options.maximumAttempts ?? 8;
  const validityMs = options.validityMs ?? 60_000;
  const queueBytes = options.queueBytes ?? Number.POSITIVE_INFINITY;
  const queue: Entry[] = [];
  let queuedBytes = 0;
  const verdicts = new Map<string, { allowed: boolean; until: number }>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;
  let failures = 0;
  let retryAt = 0;
  let lastWarning = 0;

  /** At most one warning a second about dropped logs: a dead service must not flood the log. */
  function warnDropped(reason: string, count: number, detail: Record<string, unknown> = {}) {
    events.dropped(reason, count);
    const now = Date.now();
    if (now - lastWarning < 1000) return;
    lastWarning = now;
    events.warn({ reason, count, ...detail }, 'interaction not logged');
  }

  function schedule(delayMs = flushIntervalMs) {
    if (timer || queue.length === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, delayMs);
    timer.unref();
  }

  async function allowed(key: string, action: string): Promise<boolean> {
    const cacheKey = verdictKey(key, action);
    const cached = verdicts.get(cacheKey);
    if (cached && cached.until > Date.now()) return cached.allowed;
    const verdict = await service.canLog(key, action);
    if (verdicts.size > 10_000) verdicts.clear();
    // A refusal is trusted for less time: a key may be created just after its first use.
    verdicts.set(cacheKey, { allowed: verdict, until: Date.now() + (verdict ? validityMs : validityMs / 6) });
    return verdict;
  }

  /** Takes up to one batch of entries that share the first entry's key, in queue order. */
  function takeBatch(): Entry[] {
    const key = queue[0]!.key;
    const batch: Entry[] = [];
    for (let index = 0; index < queue.length && batch.length < batchSize; ) {
      if (queue[index]!.key === key) batch.push(...queue.splice(index, 1));
      else index++;
    }
    for (const entry of batch) queuedBytes -= entry.bytes;
    return batch;
  }

  async function send(batch: Entry[]): Promise<void> {
    const key = batch[0]!.key;
    const sendable: Entry[] = [];
    for (const entry of batch) {
      if (await allowed(key, entry.record.action)) sendable.push(entry);
      else
        warnDropped('rejected', 1, {
          key_fingerprint: keyFingerprint(key),
          action: entry.record.action,
          why: 'the x-svc-api-key is invalid or cannot see the Action',
        });
    }
    if (sendable.length === 0) return;
    try {
      await service.logBatch(
        key,
        sendable.map((entry) => entry.record),
      );
      events.sent(sendable.length);
    } catch (error) {
      if (!(error instanceof ServiceRejectedError)) throw error;
      warnDropped('rejected', sendable.length, { key_fingerprint: keyFingerprint(key), why: error.message });
    }
  }

  async function flushOnce(): Promise<void> {
    while (queue.length > 0 && Date.now() >= retryAt) {
      const batch = takeBatch();
      try {
        await send(batch);
        failures = 0;
      } catch (error) {
        failures += 1;
        retryAt = Date.now() + Math.min(250 * 2 ** (failures - 1), 30_000);
        const kept = batch.filter((entry) => ++entry.attempts < maximumAttempts);
        if (kept.length < batch.length) warnDropped('retries_exhausted', batch.length - kept.length);
        else if (failures === 1)
          events.warn({ err: (error as Error).message }, 'service unavailable; logs wait');
        queue.unshift(...kept);
        for (const entry of kept) queuedBytes += entry.bytes;
      }
    }
  }

  function flush(): Promise<void> {
    flushing ??= flushOnce().finally(() => {
      flushing = undefined;
      events.depth(queue.length, queuedBytes);
      schedule(Math.max(flushIntervalMs, retryAt - Date.now()));
    });
    return flushing;
  }

  return {
    /** Queues an ended exchange as a data record (in the log worker, off the proxy's thread). */
    record(exchange: CompletedExchange): void {
      if (queue.length >= options.queueLimit) {
        warnDropped('queue_full', 1);
        return;
      }
      // A key already refused for this Action is not queued again (a cached verdict, no request).
      const verdict = verdicts.get(verdictKey(exchange.serviceKey, exchange.actionGuid));
      if (verdict && !verdict.allowed && verdict.until > Date.now()) {
        warnDropped('rejected', 1, { key_fingerprint: keyFingerprint(exchange.serviceKey) });
        return;
      }
      let entry: Entry;
      try {
        const record = toDataRecord(exchange, options.textLimit);
        entry = {
          key: exchange.serviceKey,
          record,
          attempts: 0,
          bytes: Buffer.byteLength(JSON.stringify(record)),
        };
      } catch (error) {
        events.warn({ err: (error as Error).message }, 'interaction could not be read for logging');
        return;
      }
      if (queuedBytes + entry.bytes > queueBytes) {
        warnDropped('queue_full', 1);
        return;
      }
      queue.push(entry);
      queuedBytes += entry.bytes;
      events.depth(queue.length, queuedBytes);
      if (queue.length >= batchSize) void flush();
      else schedule();
    },

    depth: () => queue.length,

    /** Sends what is queued, waiting at most `timeoutMs` (shutdown). */
    async close(timeoutMs = 5_000): Promise<void> {
      clearTimeout(timer);
      const deadline = Date.now() + timeoutMs;
      while (queue.length > 0 && Date.now() < deadline) {
        retryAt = Math.min(retryAt, Date.now());
        await flush();
        if (queue.length > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      clearTimeout(timer);
      if (queue.length > 0) warnDropped('retries_exhausted', queue.splice(0).length);
      queuedBytes = 0;
      events.depth(0, 0);
    },
  };
}

export type LogShipper = ReturnType<typeof createLogShipper>;
