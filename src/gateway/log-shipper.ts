import { createHash } from 'node:crypto';
import { type CompletedExchange, type GenerationRecord, toGenerationRecord } from './interaction.js';
import { type ServiceClient, ServiceRejectedError } from './service-client.js';
import type { Spool } from './spool.js';

/** What is spooled of an interaction: its record and the key to log it with. */
export type SpooledInteraction = { key: string; record: GenerationRecord };

/** An interaction waiting in memory, with where it lies in the spool. */
type Entry = SpooledInteraction & { bytes: number; spoolStart: number };

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
  /**
   * Where every interaction is written before it is shipped; what memory cannot hold waits there
   * (and survives a restart). Full: new interactions are dropped, counted as `spool_full`.
   */
  spool: Spool<SpooledInteraction>;
  /** Entries held in memory at most; more wait in the spool only. */
  queueLimit: number;
  /** Bytes of entries held in memory at most (their JSON), the same way. */
  queueBytes?: number;
  /** Characters kept of each logged text. */
  textLimit?: number;
  batchSize?: number;
  flushIntervalMs?: number;
  /** How often the spool is made durable (fsync) and its shipped part released. */
  syncIntervalMs?: number;
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
 * Ships interactions to the service off the hot path (docs/api.md#how-the-parts-behave): when the
 * response has ended each is converted to a generation and appended to the spool, then checked
 * (is the key valid, can it see the Action? cached) and sent in batches per key. Memory holds a
 * bounded window of what waits; the rest is read back from the spool as the window drains. While
 * the service is down, batches wait with exponential backoff, and the spool keeps them across
 * restarts: a log is dropped only when the spool is full or the service refuses it.
 */
export function createLogShipper(options: LogShipperOptions) {
  const { service, events, spool } = options;
  const batchSize = options.batchSize ?? 200;
  const flushIntervalMs = options.flushIntervalMs ?? 50;
  const validityMs = options.validityMs ?? 60_000;
  const queueBytes = options.queueBytes ?? Number.POSITIVE_INFINITY;
  const queue: Entry[] = [];
  let queuedBytes = 0;
  /** The spool offset up to which entries were taken into memory: beyond it they wait on disk. */
  let loadedTo = spool.cursor();
  /** Entries on disk only (not in memory yet): counted as they are spooled and loaded. */
  let spooledOnly = countSpooled();
  const syncing = setInterval(syncSpool, options.syncIntervalMs ?? 250);
  syncing.unref();
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

  function countSpooled(): number {
    let count = 0;
    for (let offset = spool.cursor(); offset < spool.end(); ) {
      const entries = spool.read(offset, 10_000);
      if (entries.length === 0) break;
      count += entries.length;
      offset = entries.at(-1)!.spoolEnd;
    }
    return count;
  }

  function syncSpool(): void {
    try {
      spool.sync();
    } catch (error) {
      events.warn({ err: (error as Error).message }, 'the gateway spool could not be synced');
    }
  }

  /** Everything before the oldest entry still waiting in memory (or, with none, all loaded) is done. */
  function acknowledge(): void {
    let oldest = loadedTo;
    for (const entry of queue) oldest = Math.min(oldest, entry.spoolStart);
    spool.acknowledge(oldest);
  }

  /** Takes spooled entries back into memory while there is room. */
  function load(): void {
    while (spooledOnly > 0 && queue.length < options.queueLimit && queuedBytes < queueBytes) {
      const entries = spool.read(loadedTo, Math.min(1_000, options.queueLimit - queue.length));
      if (entries.length === 0) {
        spooledOnly = 0;
        return;
      }
      for (const { spoolStart, spoolEnd, key, record } of entries) {
        queue.push({ key, record, spoolStart, bytes: spoolEnd - spoolStart });
        queuedBytes += spoolEnd - spoolStart;
        loadedTo = spoolEnd;
      }
      spooledOnly -= entries.length;
    }
  }

  function schedule(delayMs = flushIntervalMs) {
    if (timer || queue.length + spooledOnly === 0) return;
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
    load();
    while (queue.length > 0 && Date.now() >= retryAt && !stopped) {
      const batch = takeBatch();
      try {
        await send(batch);
        failures = 0;
        acknowledge();
        load();
      } catch (error) {
        failures += 1;
        retryAt = Date.now() + Math.min(250 * 2 ** (failures - 1), 30_000);
        if (failures === 1) events.warn({ err: (error as Error).message }, 'service unavailable; logs wait');
        queue.unshift(...batch);
        for (const entry of batch) queuedBytes += entry.bytes;
      }
    }
  }

  function flush(): Promise<void> {
    flushing ??= flushOnce().finally(() => {
      flushing = undefined;
      events.depth(queue.length + spooledOnly, queuedBytes);
      if (!stopped) schedule(Math.max(flushIntervalMs, retryAt - Date.now()));
    });
    return flushing;
  }

  let stopped = false;
  // What a previous run left in the spool goes out first.
  schedule();

  return {
    /** Queues an ended exchange as a generation (in the log worker, off the proxy's thread). */
    record(exchange: CompletedExchange): void {
      // A key already refused for this Action is not queued again (a cached verdict, no request).
      const verdict = verdicts.get(verdictKey(exchange.serviceKey, exchange.actionGuid));
      if (verdict && !verdict.allowed && verdict.until > Date.now()) {
        warnDropped('rejected', 1, { key_fingerprint: keyFingerprint(exchange.serviceKey) });
        return;
      }
      let interaction: SpooledInteraction;
      try {
        interaction = { key: exchange.serviceKey, record: toGenerationRecord(exchange, options.textLimit) };
      } catch (error) {
        events.warn({ err: (error as Error).message }, 'interaction could not be read for logging');
        return;
      }
      const place = spool.append(interaction);
      if (!place) {
        warnDropped('spool_full', 1);
        return;
      }
      const bytes = place.end - place.start;
      // Memory takes it while it holds everything spooled before it and has room; else it waits on disk.
      if (spooledOnly === 0 && queue.length < options.queueLimit && queuedBytes + bytes <= queueBytes) {
        queue.push({ ...interaction, bytes, spoolStart: place.start });
        queuedBytes += bytes;
        loadedTo = place.end;
      } else {
        spooledOnly += 1;
      }
      events.depth(queue.length + spooledOnly, queuedBytes);
      if (queue.length >= batchSize) void flush();
      else schedule();
    },

    /** Interactions waiting to be logged, in memory and on disk. */
    depth: () => queue.length + spooledOnly,
    /** Bytes spooled and not yet shipped. */
    spooledBytes: () => spool.pendingBytes(),

    /**
     * Sends what waits, for at most `timeoutMs` (shutdown); what is still unsent stays in the spool
     * and is shipped by the next start.
     */
    async close(timeoutMs = 5_000): Promise<void> {
      clearTimeout(timer);
      const deadline = Date.now() + timeoutMs;
      while (queue.length + spooledOnly > 0 && Date.now() < deadline) {
        retryAt = Math.min(retryAt, Date.now());
        await flush();
        if (queue.length + spooledOnly > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      stopped = true;
      clearTimeout(timer);
      clearInterval(syncing);
      await flushing;
      const left = queue.length + spooledOnly;
      if (left > 0) events.warn({ spooled: left }, 'interactions left in the spool for the next start');
      spool.close();
      events.depth(left, queuedBytes);
    },
  };
}

export type LogShipper = ReturnType<typeof createLogShipper>;
