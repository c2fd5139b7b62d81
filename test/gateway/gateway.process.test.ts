import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ChatUpstream, startChatUpstream } from '../helpers/chat-upstream.js';
import { lectern } from '../helpers/lectern-process.js';

let upstream: ChatUpstream;
beforeAll(async () => {
  upstream = await startChatUpstream();
});
afterAll(() => upstream.close());

it('runs as its own process (`lectern gateway`), proxies, and stops cleanly on SIGTERM', async () => {
  const child = lectern(['gateway'], {
    ...(process.env as Record<string, string>),
    GATEWAY_PORT: '0',
    HOST: '127.0.0.1',
    LECTERN_GATEWAY_UPSTREAM: `${upstream.url}/v1`,
    LECTERN_SERVICE_URL: 'http://127.0.0.1:9',
    LOG_LEVEL: 'info',
  });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start: ${output}`)), 60_000);
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const found = /Gateway listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
  });
  expect(await (await fetch(`${address}/healthz`)).json()).toEqual({ status: 'ok' });
  const response = await fetch(`${address}/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-process', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'from a process' }] }),
  });
  expect(((await response.json()) as any).choices[0].message.content).toBe('echo: from a process');
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
}, 90_000);
