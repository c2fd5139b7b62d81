import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import {
  createTextAction,
  keyedCaller,
  lectern,
  type ServingProcess,
  serve,
} from './helpers/lectern-process.js';
import {
  createAction,
  databaseUrl,
  eventually,
  newWorkspace,
  startTestApp,
  useProcessEnvironment,
} from './helpers/test-app.js';

const apiKey = 'lec_roles_test_key_0123456789abcdefghijklmn';
const processEnvironment = useProcessEnvironment({ LECTERN_INIT_API_KEY: apiKey });

const call = keyedCaller(apiKey);

/** The JSON log line a node writes once it listens (just after Fastify's own). */
async function startupLine(serving: ServingProcess): Promise<Record<string, unknown>> {
  const line = await eventually(async () =>
    serving
      .output()
      .split('\n')
      .find((each) => each.includes('Lectern is listening')),
  );
  return JSON.parse(line);
}

it('answers /readyz with the state of the database (and Redis when configured)', async () => {
  const test = await startTestApp();
  try {
    const response = await test.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({
      status: 'ready',
      checks: { database: 'ok', ...(process.env.REDIS_URL && { redis: 'ok' }) },
    });
  } finally {
    await test.close();
  }
});

it('answers /readyz 503 naming Redis while Redis is away, logging its errors instead of crashing', async () => {
  // A port nothing listens on: every connection attempt is refused, and ioredis keeps retrying.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  const test = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${port}` });
  try {
    test.platform.jobs.start();
    const response = await test.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    const body = JSON.parse(response.body);
    expect(body.status).toBe('not_ready');
    expect(body.checks.database).toBe('ok');
    expect(body.checks.redis).not.toBe('ok');
    // A run that needs the queue is refused at once with a 503 the client may retry.
    const client = await newWorkspace(test);
    const action = await createAction(client, { model: 'mock/echo', prompt: '{{text}}' });
    const started = Date.now();
    const queued = await client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { text: 'hello' },
      async_mode: true,
    });
    expect(queued.status).toBe(503);
    expect(queued.body.error).toMatchObject({ status: 503, code: 'queue_unavailable' });
    expect(queued.body.message).toContain('The job queue is unavailable');
    expect(Date.now() - started).toBeLessThan(5_000);
    // ioredis retries the refused connections while all three come to log; each logs its error once
    // (at most once per 30 s: that throttle is unit-tested with fake timers).
    const connectionsLogged = () =>
      test.logs
        .filter((line) => line.includes('Redis connection error'))
        .map((line) => JSON.parse(line).connection as string);
    await eventually(
      async () =>
        ['streams', 'job queue', 'job worker'].every((name) => connectionsLogged().includes(name)) ||
        undefined,
    );
    const connections = connectionsLogged();
    expect(new Set(connections).size).toBe(connections.length);
  } finally {
    await test.close();
  }
});

it('refuses an unknown role with a clear message', async () => {
  const child = lectern(['serve', '--role', 'banana'], processEnvironment.values);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  expect(code).toBe(1);
  expect(stderr).toContain('--role must be all, api or worker');
});

it('serves only the health routes on a worker node', async () => {
  const worker = await serve(processEnvironment.values, ['--role', 'worker']);
  try {
    expect((await fetch(`${worker.baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${worker.baseUrl}/readyz`)).status).toBe(200);
    expect((await call(worker.baseUrl, 'GET', '/v1/apps')).status).toBe(404);
  } finally {
    expect(await worker.stop()).toBe(0);
  }
}, 90_000);

// Two processes on one database need PostgreSQL (an embedded data dir belongs to one process), so
// this one is registered in the PostgreSQL pass only.
if (databaseUrl)
  it('leaves jobs to worker nodes: an api node queues an async run that a worker node then runs', async () => {
    const api = await serve(processEnvironment.values, ['--role', 'api']);
    try {
      const actionGuid = await createTextAction(call, api.baseUrl, {
        app: 'roles',
        name: 'echo',
        model: 'mock/echo',
      });
      const queued = await call(api.baseUrl, 'POST', `/v1/actions/${actionGuid}/prompt`, {
        input: { text: 'run by the worker' },
        async_mode: true,
      });
      const resultPath = new URL(queued.body.result_url).pathname;
      // The api node says it takes no jobs (the same flag decides whether its worker starts), so
      // the run waits for the worker node rather than for some time to pass.
      expect(await startupLine(api)).toMatchObject({ role: 'api', takesJobs: false });
      expect((await call(api.baseUrl, 'GET', resultPath)).body.status).toBe('PENDING');
      const worker = await serve(processEnvironment.values, ['--role', 'worker']);
      try {
        expect(await startupLine(worker)).toMatchObject({ role: 'worker', takesJobs: true });
        const done = await eventually(async () => {
          const poll = await call(api.baseUrl, 'GET', resultPath);
          return poll.body.status === 'SUCCESS' ? poll.body : undefined;
        }, 30_000);
        expect(done.msg).toBe('run by the worker');
      } finally {
        await worker.stop();
      }
    } finally {
      await api.stop();
    }
  }, 90_000);
