import type { ClaimResult, NumberedEvent, StreamBus, StreamEvent } from './stream-bus.js';

type Entry = {
  events: StreamEvent[];
  claimed: boolean;
  /** Until when a reconnect with `Last-Event-ID` may resume: the first claim plus the window (0 before it). */
  resumableUntil: number;
  expiresAt: number;
  wake: Set<() => void>;
};

const sweepIntervalMs = 60_000;

// The clock is read at each call (not captured), so a test that sets the system time moves it too.
export function createMemoryStreamBus(now: () => number = () => Date.now()): StreamBus {
  const streams = new Map<string, Entry>();
  const live = (streamId: string) => {
    const entry = streams.get(streamId);
    if (entry && entry.expiresAt <= now()) {
      streams.delete(streamId);
      return undefined;
    }
    return entry;
  };
  const sweeper = setInterval(() => {
    for (const [streamId, entry] of streams) if (entry.expiresAt <= now()) streams.delete(streamId);
  }, sweepIntervalMs);
  sweeper.unref();

  return {
    async create(streamId, ttlMs) {
      streams.set(streamId, {
        events: [],
        claimed: false,
        resumableUntil: 0,
        expiresAt: now() + ttlMs,
        wake: new Set(),
      });
    },
    async append(streamId, event) {
      const entry = live(streamId);
      if (!entry) return;
      entry.events.push(event);
      for (const wake of entry.wake) wake();
    },
    async claim(streamId, options): Promise<ClaimResult> {
      const entry = live(streamId);
      if (!entry) return 'unknown';
      if (!entry.claimed) {
        entry.claimed = true;
        entry.resumableUntil = now() + options.resumeWindowMs;
        return 'claimed';
      }
      return options.resume && now() < entry.resumableUntil ? 'resumed' : 'consumed';
    },
    async *read(streamId, signal): AsyncGenerator<NumberedEvent> {
      const entry = live(streamId);
      if (!entry) return;
      let position = 0;
      while (!signal?.aborted) {
        while (position < entry.events.length) {
          const event = entry.events[position++]!;
          yield { sequence: position, event };
          if (event.type !== 'token') return;
        }
        if (entry.expiresAt <= now()) return;
        await new Promise<void>((resolve) => {
          const wake = () => {
            entry.wake.delete(wake);
            signal?.removeEventListener('abort', wake);
            resolve();
          };
          entry.wake.add(wake);
          signal?.addEventListener('abort', wake, { once: true });
        });
      }
    },
    async ping() {},
    async close() {
      clearInterval(sweeper);
      for (const entry of streams.values()) for (const wake of entry.wake) wake();
      streams.clear();
    },
  };
}
