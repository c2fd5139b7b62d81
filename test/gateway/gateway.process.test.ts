import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ChatUpstream, startChatUpstream } from '../helpers/chat-upstream.js';
import { startGatewayProcess } from '../helpers/lectern-process.js';
import {
  createAction,
  eventually,
  listen,
  temporaryDirectory,
  useTestWorkspace,
} from '../helpers/test-app.js';

const context = useTestWorkspace();
let upstream: ChatUpstream;
let serviceUrl: string;
beforeAll(async () => {
  upstream = await startChatUpstream();
  serviceUrl = await listen(context.test);
});
afterAll(() => upstream.close());

/** `lectern gateway` as a process in front of the local upstream. */
const startGateway = (environment: Record<string, string>) =>
  startGatewayProcess({
    ...(process.env as Record<string, string>),
    LECTERN_GATEWAY_UPSTREAM: `${upstream.url}/v1`,
    ...environment,
  });

const complete = (address: string, content: string, headers: Record<string, string> = {}) =>
  fetch(`${address}/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-process', 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content }] }),
  });

it('runs as its own process (`lectern gateway`), proxies, and stops cleanly on SIGTERM', async () => {
  const { child, address } = await startGateway({
    LECTERN_SERVICE_URL: 'http://127.0.0.1:9',
    LECTERN_GATEWAY_DATA_DIR: temporaryDirectory(),
  });
  expect(await (await fetch(`${address}/healthz`)).json()).toEqual({ status: 'ok' });
  const response = await complete(address, 'from a process');
  expect(((await response.json()) as any).choices[0].message.content).toBe('echo: from a process');
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
}, 90_000);

it('loses no spooled interaction to kill -9: the next start ships them all', async () => {
  const dataDirectory = temporaryDirectory();
  const action = await createAction(context.client, { name: 'Survives kill' });
  const headers = { 'x-svc-api-key': context.client.apiKey, 'x-svc-action-guid': action.guid };
  // The service is unreachable: every interaction waits in the spool.
  const first = await startGateway({
    LECTERN_SERVICE_URL: 'http://127.0.0.1:9',
    LECTERN_GATEWAY_DATA_DIR: dataDirectory,
  });
  for (let index = 0; index < 20; index++)
    expect((await complete(first.address, `kept ${index}`, headers)).status).toBe(200);
  await eventually(async () =>
    /lectern_gateway_log_queue_depth 20\b/.test(await (await fetch(`${first.address}/metrics`)).text())
      ? true
      : undefined,
  );
  const killed = new Promise((resolve) => first.child.on('exit', resolve));
  first.child.kill('SIGKILL');
  await killed;

  const second = await startGateway({
    LECTERN_SERVICE_URL: serviceUrl,
    LECTERN_GATEWAY_DATA_DIR: dataDirectory,
  });
  try {
    await eventually(
      async () =>
        second.output().includes(`Took over the data directory lock of PID ${first.child.pid}`) || undefined,
    );
    const records = await eventually(async () => {
      const response = await context.client.get(`/v1/actions/${action.guid}/data?limit=100`);
      return response.body.length >= 20 ? response.body : undefined;
    }, 30_000);
    expect(records.map((record: { output: string }) => record.output).sort()).toEqual(
      Array.from({ length: 20 }, (_, index) => `echo: kept ${index}`).sort(),
    );
  } finally {
    const exited = new Promise((resolve) => second.child.on('exit', resolve));
    second.child.kill('SIGTERM');
    await exited;
  }
}, 120_000);
