import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type Clock,
  deliverEvents,
  endPauseMs,
  eventSpacingMs,
} from '../../src/features/runtime/runs/stream-delivery.js';
import type { NumberedEvent, StreamEvent } from '../../src/platform/streams/stream-bus.js';

/** A stream bus reader the test feeds by hand, numbering events as the bus does. */
function feed() {
  const queued: NumberedEvent[] = [];
  let wake: (() => void) | undefined;
  let sequence = 0;
  let ended = false;
  return {
    push(event: StreamEvent) {
      queued.push({ sequence: ++sequence, event });
      if (event.type !== 'token') ended = true;
      wake?.();
    },
    async *events(): AsyncGenerator<NumberedEvent> {
      for (;;) {
        while (queued.length > 0) yield queued.shift()!;
        if (ended) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}

const fakeClock = (earlyBy = 0): Clock => ({
  now: () => Date.now(),
  // A timer that fires `earlyBy` ms before it was asked to.
  sleep: (milliseconds) => new Promise((resolve) => setTimeout(resolve, Math.max(0, milliseconds - earlyBy))),
});

type Sent = { at: number; frame: string };

function start(
  source: ReturnType<typeof feed>,
  options: { begin?: boolean; clock?: Clock; signal?: AbortSignal } = {},
) {
  const sent: Sent[] = [];
  const origin = Date.now();
  const done = deliverEvents(source.events(), {
    begin: options.begin ?? true,
    clock: options.clock ?? fakeClock(),
    signal: options.signal,
    send: (frame) => {
      sent.push({ at: Date.now() - origin, frame });
    },
  });
  return { sent, done };
}

const tokenFrame = (id: number, token: string) => `id: ${id}\ndata: ${JSON.stringify({ token })}\n\n`;

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('stream delivery pacing', () => {
  it('merges tokens that were ready while an event was held back, keeps events apart, and pauses longer before END_STREAM', async () => {
    const source = feed();
    source.push({ type: 'token', token: 'Hel' });
    source.push({ type: 'token', token: 'lo' });
    const { sent, done } = start(source);
    // After the first token event (at the spacing), then after the second (at twice the spacing).
    await vi.advanceTimersByTimeAsync(Math.round(1.25 * eventSpacingMs));
    source.push({ type: 'token', token: ' wor' });
    await vi.advanceTimersByTimeAsync(Math.round(0.8 * eventSpacingMs));
    source.push({ type: 'token', token: 'ld' });
    source.push({ type: 'token', token: '!' });
    source.push({ type: 'end' });
    await vi.advanceTimersByTimeAsync(2 * eventSpacingMs + endPauseMs);
    await done;

    expect(sent).toEqual([
      { at: 0, frame: 'id: 0\ndata: BEGIN_STREAM\n\n' },
      { at: eventSpacingMs, frame: tokenFrame(2, 'Hello') },
      { at: 2 * eventSpacingMs, frame: tokenFrame(3, ' wor') },
      { at: 3 * eventSpacingMs, frame: tokenFrame(5, 'ld!') },
      { at: 3 * eventSpacingMs + endPauseMs, frame: 'id: 6\ndata: END_STREAM\n\n' },
    ]);
  });

  it('sends the first token as soon as it exists once the spacing after BEGIN_STREAM has passed', async () => {
    const source = feed();
    const { sent, done } = start(source);
    await vi.advanceTimersByTimeAsync(300);
    source.push({ type: 'token', token: 'late' });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((item) => item.at)).toEqual([0, 300]);
    await vi.advanceTimersByTimeAsync(100);
    source.push({ type: 'token', token: ' and slow' });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.at(-1)).toEqual({ at: 400, frame: tokenFrame(2, ' and slow') });
    source.push({ type: 'end' });
    await vi.advanceTimersByTimeAsync(endPauseMs + 10);
    await done;
    expect(sent.at(-1)).toEqual({ at: 400 + endPauseMs, frame: 'id: 3\ndata: END_STREAM\n\n' });
  });

  it('waits out a timer that fires early, so no two events are closer than the spacing', async () => {
    const source = feed();
    for (const word of ['a', 'b', 'c', 'd']) source.push({ type: 'token', token: word });
    const { sent, done } = start(source, { clock: fakeClock(7) });
    for (const word of ['e', 'f', 'g']) {
      await vi.advanceTimersByTimeAsync(eventSpacingMs + 1);
      source.push({ type: 'token', token: word });
    }
    source.push({ type: 'end' });
    await vi.advanceTimersByTimeAsync(8 * eventSpacingMs + endPauseMs);
    await done;
    const gaps = sent.slice(1).map((item, index) => item.at - sent[index]!.at);
    expect(gaps.slice(0, -1).every((gap) => gap >= eventSpacingMs)).toBe(true);
    expect(gaps.at(-1)).toBeGreaterThanOrEqual(endPauseMs);
    const text = sent
      .filter((item) => item.frame.includes('"token"'))
      .map((item) => JSON.parse(item.frame.split('data: ')[1]!).token)
      .join('');
    expect(text).toBe('abcdefg');
  });

  it('sends an error as event: error with its id, and no BEGIN_STREAM when resuming', async () => {
    const source = feed();
    source.push({ type: 'token', token: 'partial' });
    source.push({ type: 'error', message: 'provider down' });
    const { sent, done } = start(source, { begin: false });
    await vi.advanceTimersByTimeAsync(endPauseMs + 10);
    await done;
    expect(sent).toEqual([
      { at: 0, frame: tokenFrame(1, 'partial') },
      { at: endPauseMs, frame: 'event: error\nid: 2\ndata: {"message":"provider down"}\n\n' },
    ]);
  });

  it('stops sending when the client goes away', async () => {
    const source = feed();
    const controller = new AbortController();
    const { sent, done } = start(source, { signal: controller.signal });
    source.push({ type: 'token', token: 'one' });
    await vi.advanceTimersByTimeAsync(5);
    controller.abort();
    source.push({ type: 'token', token: 'two' });
    await vi.advanceTimersByTimeAsync(100);
    await done;
    expect(sent.map((item) => item.frame)).toEqual(['id: 0\ndata: BEGIN_STREAM\n\n']);
  });
});
