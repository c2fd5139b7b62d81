import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sdkStreamingClient, spin, startCpuBurners } from '../helpers/busy.js';
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
  lectern = await serve(environment.values);
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
  it('delivers every text whole to a client busy between reads while two CPU burners run: 30 of 30', async () => {
    const actionGuid = await createTextAction(call, lectern.baseUrl, {
      app: 'sdk streams',
      name: 'echo',
      model: 'mock/echo',
    });
    const burners = startCpuBurners(2);
    // Every text that did not arrive whole, as received: a failure shows what was lost.
    const wrong: Array<{ run: number; received: string }> = [];
    try {
      for (let run = 0; run < 30; run += 1) {
        const text = Array.from({ length: 40 }, (_, index) => `run${run}word${index}`).join(' ');
        const started = await call(lectern.baseUrl, 'POST', `/v1/actions/${actionGuid}/prompt`, {
          input: { text },
          streaming: true,
        });
        const url = started.body.streaming_url.replace(/^http:\/\/[^/]+/, lectern.baseUrl);
        const received = await readBusily(url, 5);
        if (received !== text) wrong.push({ run, received });
      }
    } finally {
      burners.stop();
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
