import { Klu } from '@lectern/client/klu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventSpacingMs } from '../../src/features/runtime/runs/stream-delivery.js';
import { sdkStreamingClient, spin, startCpuBurners, watchEventLoop } from '../helpers/busy.js';
import { freePort } from '../helpers/klu-sdk.js';
import { createTextAction, keyedCaller, type ServingProcess, serve } from '../helpers/lectern-process.js';
import { useProcessEnvironment } from '../helpers/test-app.js';

// Lectern runs as a process of its own, so its writes and the SDK's reads are paced by two schedulers,
// as for a real client; two CPU burners load the 2-core machine as a shared host would.
const apiKey = 'lec_sdk_streams_key_0123456789abcdefghijklmn';
const environment = useProcessEnvironment({ LECTERN_INIT_API_KEY: apiKey });
const call = keyedCaller(apiKey);
let lectern: ServingProcess;
let readStream: (url: string) => AsyncGenerator<string>;

beforeAll(async () => {
  // Stream URLs name LECTERN_BASE_URL: this process's own address, as a deployment sets it.
  const port = await freePort();
  lectern = await serve({
    ...environment.values,
    PORT: String(port),
    LECTERN_BASE_URL: `http://127.0.0.1:${port}`,
  });
  readStream = await sdkStreamingClient();
}, 60_000);
afterAll(() => lectern?.stop());

/** Reads one stream with the SDK's client, busy for `busyMs` after every token it hands over. */
async function readBusily(url: string, busyMs: number): Promise<string> {
  let text = '';
  for await (const token of readStream(url)) {
    text += token;
    spin(busyMs);
  }
  return text;
}

describe('streams read by the official SDK’s EventSource client', () => {
  // The SDK keeps one event of those a socket read hands it (docs/streaming.md), so what Lectern can
  // promise it is this: a client that reads its socket at least once per event spacing gets every
  // text whole. A run in which this process went unscheduled for a spacing or longer (a loaded host,
  // a paused VM, a long garbage collection) may lose an event in the SDK whatever the server does:
  // such a run is counted apart and the test runs on until 30 runs read on time.
  it('delivers every text whole to a client that reads on time, busy between reads while two CPU burners run: 30 of 30', async () => {
    const actionGuid = await createTextAction(call, lectern.baseUrl, {
      app: 'sdk streams',
      name: 'echo',
      model: 'mock/echo',
    });
    const burners = startCpuBurners(2);
    // Every text that did not arrive whole to a client that read on time, as received.
    const wrong: Array<{ run: number; received: string }> = [];
    const late: Array<{ run: number; pauseMs: number; whole: boolean }> = [];
    let onTime = 0;
    try {
      for (let run = 0; onTime < 30 && run < 120; run += 1) {
        const text = Array.from({ length: 40 }, (_, index) => `run${run}word${index}`).join(' ');
        const started = await call(lectern.baseUrl, 'POST', `/v1/actions/${actionGuid}/prompt`, {
          input: { text },
          streaming: true,
        });
        const url = started.body.streaming_url.replace(/^http:\/\/[^/]+/, lectern.baseUrl);
        const watch = watchEventLoop();
        const received = await readBusily(url, 5).finally(() => watch.stop());
        const pauseMs = watch.longestPauseMs();
        if (pauseMs >= eventSpacingMs) {
          late.push({ run, pauseMs: Math.round(pauseMs), whole: received === text });
          continue;
        }
        onTime += 1;
        if (received !== text) wrong.push({ run, received });
      }
    } finally {
      burners.stop();
    }
    expect(wrong).toEqual([]);
    expect({ onTime, late }).toEqual({ onTime: 30, late });
  }, 180_000);
});

describe('streams read by Lectern’s client (@lectern/client/klu)', () => {
  it('delivers 300 of 300 texts whole, 10 streams at a time, to busy readers while two CPU burners run', async () => {
    const actionGuid = await createTextAction(call, lectern.baseUrl, {
      app: 'client streams',
      name: 'echo',
      model: 'mock/echo',
    });
    const klu = new Klu(apiKey, { baseUrl: lectern.baseUrl });
    const wrong: Array<{ run: number; received: string }> = [];
    let words = 0;
    async function one(run: number) {
      const text = Array.from({ length: 40 }, (_, index) => `run${run}word${index}`).join(' ');
      const streamed = await klu.actions.stream(actionGuid, { text });
      let received = '';
      for await (const token of streamed.streamingData) {
        received += token;
        spin(2);
      }
      if (received === text) words += 40;
      else wrong.push({ run, received });
    }
    const burners = startCpuBurners(2);
    try {
      for (let round = 0; round < 30; round += 1) {
        await Promise.all(Array.from({ length: 10 }, (_, index) => one(round * 10 + index)));
      }
    } finally {
      burners.stop();
    }
    expect(wrong).toEqual([]);
    expect(words).toBe(300 * 40);
  }, 240_000);
});
