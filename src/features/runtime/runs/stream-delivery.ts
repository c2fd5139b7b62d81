import { setTimeout as delay } from 'node:timers/promises';
import type { NumberedEvent, StreamEvent } from '../../../platform/streams/stream-bus.js';

/**
 * docs/streaming.md delivery rules. The official JS SDK keeps one pending resolver, so of several events
 * that arrive in one socket read it keeps only the first: consecutive events are held at least this
 * far apart, longer than a busy client goes without reading. At 20 ms (the least allowed) the SDK
 * test lost one text of 30 in two runs of the whole suite beside two CPU burners on a 2-core machine:
 * a client process can wait that long for a core. Tokens merge while held, so a slower pace means fewer,
 * larger events, not a slower stream.
 */
export const eventSpacingMs = 50;
/** `END_STREAM` waits longer after the last token: losing it makes the SDK reconnect. */
export const endPauseMs = 100;

/** `BEGIN_STREAM` is event 0; the bus numbers a generation's events from 1. */
const beginSequence = 0;

export type Clock = {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** May return early (timers are coarse): callers check the clock again. */
  sleep(milliseconds: number): Promise<void>;
};

export const monotonicClock: Clock = {
  now: () => performance.now(),
  sleep: (milliseconds) => delay(milliseconds),
};

function frame(id: number, event: StreamEvent | { type: 'begin' }): string {
  const data =
    event.type === 'begin'
      ? 'BEGIN_STREAM'
      : event.type === 'token'
        ? JSON.stringify({ token: event.token })
        : event.type === 'end'
          ? 'END_STREAM'
          : JSON.stringify({ message: event.message });
  return `${event.type === 'error' ? 'event: error\n' : ''}id: ${id}\ndata: ${data}\n\n`;
}

export type DeliveryOptions = {
  /** Writes one whole event to the client and resolves when it may take more (backpressure). */
  send(frame: string): Promise<void> | void;
  /** False when resuming after `Last-Event-ID`: the client has had `BEGIN_STREAM`. */
  begin: boolean;
  signal?: AbortSignal;
  clock?: Clock;
};

/**
 * Sends a generation's events as server-sent events, each on its own and paced: tokens that became
 * ready while an event was held back go out merged in one token event (its id is the last merged
 * token's number), so a fast model, a cached answer or a replay sends few events and is not slowed to
 * one token per spacing. The first token goes out as soon as the spacing after `BEGIN_STREAM` allows.
 */
export async function deliverEvents(events: AsyncIterable<NumberedEvent>, options: DeliveryOptions) {
  const { send, signal, clock = monotonicClock } = options;
  const ready: NumberedEvent[] = [];
  let finished = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };

  // Reads on while delivery waits, so that what arrives meanwhile can be merged.
  const reading = (async () => {
    try {
      for await (const event of events) {
        ready.push(event);
        notify();
        if (signal?.aborted) break;
      }
    } catch (error) {
      failure = error;
    } finally {
      finished = true;
      notify();
    }
  })();

  let lastWriteAt: number | undefined;
  let lastWasToken = false;
  const write = async (text: string) => {
    await send(text);
    lastWriteAt = clock.now();
  };
  /** Waits until `gap` has passed since the last write; an early timer is waited out again. */
  const spaceBy = async (gap: number) => {
    if (lastWriteAt === undefined) return;
    const due = lastWriteAt + gap;
    for (let left = due - clock.now(); left > 0 && !signal?.aborted; left = due - clock.now()) {
      await clock.sleep(left);
    }
  };

  signal?.addEventListener('abort', notify, { once: true });
  try {
    if (options.begin) await write(frame(beginSequence, { type: 'begin' }));
    while (!signal?.aborted) {
      if (ready.length === 0) {
        if (finished) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      const head = ready[0]!;
      const isToken = head.event.type === 'token';
      await spaceBy(isToken || !lastWasToken ? eventSpacingMs : endPauseMs);
      if (signal?.aborted) break;
      if (!isToken) {
        ready.shift();
        await write(frame(head.sequence, head.event));
        lastWasToken = false;
        continue;
      }
      let text = '';
      let last = head;
      while (ready[0]?.event.type === 'token') {
        last = ready.shift()!;
        text += (last.event as { token: string }).token;
      }
      await write(frame(last.sequence, { type: 'token', token: text }));
      lastWasToken = true;
    }
  } finally {
    signal?.removeEventListener('abort', notify);
  }
  if (signal?.aborted) return;
  await reading;
  // A bus that failed mid-stream: the caller logs it; the client sees the connection end.
  if (failure !== undefined) throw failure;
}
