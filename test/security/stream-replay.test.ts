import { afterEach, describe, expect, it, vi } from 'vitest';
import { atAddress, createAction, listen, parseEvents, useTestWorkspace } from '../helpers/test-app.js';

/*
 * A one-time stream URL may be resumed with Last-Event-ID for 60 s after its first claim, and never
 * after: reconnecting again and again must not keep it readable. The clock is moved with the system
 * time, which the in-process stream bus reads; Redis keeps its own clock, so this file runs on the
 * embedded bus in both passes (the Redis bus's fixed window is tested in test/platform/primitives).
 */
const context = useTestWorkspace({ REDIS_URL: '' });

afterEach(() => {
  vi.useRealTimers();
});

describe('replaying a read-once stream URL', () => {
  it('resumes within 60 s of the first claim however often it is asked, and answers 410 after', async () => {
    const address = await listen(context.test);
    const action = await createAction(context.client, {});
    const started = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { name: 'replay me' },
      streaming: true,
    });
    const url = atAddress(started.body.streaming_url, address);
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const claimedAt = Date.now();
    const whole = await (await fetch(url)).text();
    expect(parseEvents(whole).at(-1)?.data).toBe('END_STREAM');

    // Each replay's connection ends; none of them may move the window's end.
    for (const secondsLater of [20, 40, 59]) {
      vi.setSystemTime(claimedAt + secondsLater * 1000);
      const replay = await fetch(url, { headers: { 'last-event-id': '0' } });
      expect(replay.status).toBe(200);
      expect(parseEvents(await replay.text()).at(-1)?.data).toBe('END_STREAM');
    }
    vi.setSystemTime(claimedAt + 61_000);
    const late = await fetch(url, { headers: { 'last-event-id': '0' } });
    expect(late.status).toBe(410);
    expect(((await late.json()) as { message: string }).message).toBe('stream has been consumed');
  });
});
