import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/database/connection.js';
import { evaluate } from '../helpers/evaluations.js';
import {
  type Client,
  clientFor,
  createAction,
  databaseUrl,
  eventually,
  newWorkspace,
  openEmptyDatabase,
  startTestApp,
  useTestWorkspace,
  whileQueueRefuses,
} from '../helpers/test-app.js';

// Webhooks (docs/webhooks.md): signed with Standard Webhooks, written to an outbox in the change's
// transaction, sent by the job queue in order per webhook, retried, and logged for redelivery.

type Received = {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  event: { type: string; data: any };
};
type Answer = (request: Received, count: number) => { status: number; location?: string };

const defaultAnswer: Answer = () => ({ status: 204 });

/** A real HTTP receiver on a local port: each path answers as told (204 by default) and records every request. */
async function startReceiver() {
  const received: Received[] = [];
  const answers = new Map<string, Answer>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = request.url ?? '';
      const entry = { path, headers: request.headers, body, event: body ? JSON.parse(body) : {} };
      received.push(entry);
      const count = received.filter((each) => each.path === path).length;
      const { status, location } = (answers.get(path) ?? defaultAnswer)(entry, count);
      response.writeHead(status, location ? { location } : {});
      response.end(status >= 300 ? 'receiver says no' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    at: (path: string) => received.filter((each) => each.path === path),
    answer: (path: string, answer: Answer) => answers.set(path, answer),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Local receivers are allowed, and retries come 200 ms, 1.2 s, 2.4 s… apart instead of 5 s, 30 s, 60 s… */
const fastLocal = { LECTERN_OUTBOUND_ALLOW: '127.0.0.1', LECTERN_WEBHOOK_RETRY_BASE_MS: '200' };
const context = useTestWorkspace(fastLocal, { ownJobQueue: true, startJobs: true });
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

let paths = 0;
/** A path of its own for each webhook of a test. */
const newPath = (name: string) => `/${name}-${++paths}`;

async function newWebhook(client: Client, path: string, events: string[] = ['*']) {
  const created = await client.post('/v1/webhooks', { url: receiver.url(path), events });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { guid: string; secret: string; url: string };
}

/** Waits until the receiver's `path` has had `count` requests; answers them. */
function receive(path: string, count: number, timeoutMs = 10_000): Promise<Received[]> {
  return eventually(async () => {
    const got = receiver.at(path);
    return got.length >= count ? got : undefined;
  }, timeoutMs);
}

/** Checks a request as a receiver would, with the Standard Webhooks library: throws if it is not signed by `secret`. */
function verified(secret: string, request: Received) {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': request.headers['webhook-id'] as string,
    'webhook-timestamp': request.headers['webhook-timestamp'] as string,
    'webhook-signature': request.headers['webhook-signature'] as string,
  }) as { type: string; timestamp: string; workspace: string; data: Record<string, unknown> };
}

describe('webhooks', () => {
  it('answers the secret only when made or rotated, and refuses bad URLs and events naming the field', async () => {
    const { client, test } = context;
    const path = newPath('crud');
    const created = await newWebhook(client, path, ['action.deployed']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const got = await client.get(`/v1/webhooks/${created.guid}`);
    expect(got.body).toEqual({
      guid: created.guid,
      url: receiver.url(path),
      events: ['action.deployed'],
      description: '',
      enabled: true,
      created_at: expect.any(String),
    });
    const listed = await client.get('/v1/webhooks');
    expect(listed.body.data.map((each: { guid: string }) => each.guid)).toContain(created.guid);
    expect(JSON.stringify(listed.body)).not.toContain(created.secret);

    const rotated = await client.post(`/v1/webhooks/${created.guid}/rotate_secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);

    const updated = await client.put(`/v1/webhooks/${created.guid}`, { events: ['*'], description: 'All' });
    expect(updated.body).toMatchObject({ events: ['*'], description: 'All' });

    for (const [url, reason] of [
      ['https://user:pass@example.com/hook', 'credentials'],
      ['ftp://example.com/hook', 'http and https'],
      ['http://10.0.0.8/hook', ''],
      ['not a url', 'not a URL'],
    ]) {
      const refused = await client.post('/v1/webhooks', { url, events: ['*'] });
      expect(refused.status, url).toBe(400);
      expect(refused.body.error.field).toBe('url');
      expect(refused.body.error.message).toContain(reason);
    }
    const noEvents = await client.post('/v1/webhooks', { url: receiver.url(path), events: [] });
    expect(noEvents.status).toBe(400);
    expect(noEvents.body.error.field).toBe('events');
    const unknownEvent = await client.post('/v1/webhooks', {
      url: receiver.url(path),
      events: ['action.renamed'],
    });
    expect(unknownEvent.body.error.field).toBe('events.0');

    const gone = await client.delete(`/v1/webhooks/${created.guid}`);
    expect(gone.body).toEqual({ guid: created.guid, deleted: true });
    expect((await client.get(`/v1/webhooks/${created.guid}`)).status).toBe(404);

    // No secret reaches a log or the audit log.
    const logs = test.logs.join('\n');
    expect(logs).not.toContain(created.secret);
    expect(logs).not.toContain(rotated.body.secret);
    const audit = await client.get('/v1/audit_log?limit=100');
    expect(JSON.stringify(audit.body)).not.toContain(rotated.body.secret);
  });

  it('lets only admins and owners near webhooks: a developer key is refused', async () => {
    const { client, test } = context;
    const key = await client.post('/v1/api_keys', { name: 'developer key', role: 'developer' });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const developer = clientFor(test.app, key.body.api_key, client.workspaceGuid);
    expect((await developer.get('/v1/webhooks')).status).toBe(403);
    expect(
      (await developer.post('/v1/webhooks', { url: receiver.url('/developer'), events: ['*'] })).status,
    ).toBe(403);
  });

  it("signs each event: a new Action's save and deploy in order, then saves, deploys, refusals and finished evaluations", async () => {
    const { client } = context;
    const path = newPath('events');
    const { secret } = await newWebhook(client, path);
    const action = await createAction(client, { prompt: '{{answer}}' });
    const [saved, deployed] = await receive(path, 2);
    const first = verified(secret, saved!);
    expect(first).toEqual({
      type: 'action.version_saved',
      timestamp: expect.any(String),
      workspace: client.workspaceGuid,
      data: {
        action: action.guid,
        slug: action.slug,
        version: 1,
        saved_by_id: expect.any(String),
        changed_fields: expect.arrayContaining(['prompt', 'model']),
      },
    });
    expect(verified(secret, deployed!).data).toEqual({
      action: action.guid,
      slug: action.slug,
      version: 1,
      environment: 'production',
      deployed_by: expect.any(String),
    });
    expect(saved!.headers['content-type']).toBe('application/json');
    // A forged signature is refused by the same library.
    expect(() => verified(`whsec_${Buffer.alloc(24, 7).toString('base64')}`, saved!)).toThrow();

    expect((await client.put(`/v1/actions/${action.guid}`, { prompt: 'Paris' })).status).toBe(200);
    expect(
      (await client.post(`/v1/actions/${action.guid}/deploy`, { environment: 'production', version: 2 }))
        .status,
    ).toBe(200);
    const [, , resaved, redeployed] = await receive(path, 4);
    expect(verified(secret, resaved!).data).toMatchObject({ version: 2, changed_fields: ['prompt'] });
    expect(verified(secret, redeployed!).data).toMatchObject({ version: 2, environment: 'production' });

    // A release gate that says no: the deploy fails, and the refusal is told all the same.
    const dataset = (await client.post('/v1/datasets', { name: 'Cities' })).body.guid as string;
    await client.post(`/v1/datasets/${dataset}/items`, {
      items: [{ input: { answer: 'x' }, expected_output: 'Paris' }],
    });
    const exact = (await client.post('/v1/evaluators', { name: 'Exact', type: 'exact_match' })).body.guid;
    await client.put(`/v1/actions/${action.guid}/gates/production`, {
      dataset,
      evaluators: [exact],
      min_mean: { [exact]: 1 },
    });
    const refused = await client.post(`/v1/actions/${action.guid}/deploy`, {
      environment: 'production',
      version: 1,
    });
    expect(refused.status).toBe(409);
    const refusal = (await receive(path, 5))[4]!;
    expect(verified(secret, refusal)).toMatchObject({
      type: 'deployment.refused',
      data: { action: action.guid, version: 1, environment: 'production', unmet: ['evaluation_missing'] },
    });

    // An evaluation that ends tells `evaluation.finished`.
    const evaluation = await evaluate(client, {
      action: action.guid,
      version: 2,
      dataset,
      evaluators: [exact],
    });
    const finished = await eventually(async () =>
      receiver.at(path).find((each) => each.event.type === 'evaluation.finished'),
    );
    expect(verified(secret, finished).data).toMatchObject({
      evaluation: evaluation.guid,
      action: action.guid,
      version: 2,
      status: 'SUCCESS',
    });

    // A snippet's saves, and only the saves that make a version.
    const name = `tone-${paths}`;
    await client.post('/v1/snippets', { name, content: 'Be kind.' });
    await client.put(`/v1/snippets/${name}`, { description: 'no new version' });
    await client.put(`/v1/snippets/${name}`, { content: 'Be very kind.' });
    const snippetEvents = await eventually(async () => {
      const got = receiver.at(path).filter((each) => each.event.type === 'snippet.version_saved');
      return got.length >= 2 ? got : undefined;
    });
    expect(snippetEvents.map((each) => each.event.data.version)).toEqual([1, 2]);
    expect(snippetEvents[0]!.event.data).toMatchObject({ name, saved_by_id: expect.any(String) });

    const log = await client.get(
      `/v1/webhooks/${(await client.get('/v1/webhooks')).body.data[0].guid}/deliveries`,
    );
    expect(log.status).toBe(200);
  });

  it('sends only the events a webhook takes, nothing to a disabled one, and nothing for a save that failed', async () => {
    const { client } = context;
    const deploysOnly = newPath('deploys');
    const disabledPath = newPath('disabled');
    const everything = newPath('everything');
    await newWebhook(client, deploysOnly, ['action.deployed']);
    const disabled = await newWebhook(client, disabledPath);
    await client.put(`/v1/webhooks/${disabled.guid}`, { enabled: false });
    const all = await newWebhook(client, everything);
    const action = await createAction(client);
    const refusedSave = await client.put(`/v1/actions/${action.guid}`, { prompt: 'Hello {{ name' });
    expect(refusedSave.status).toBe(400);
    const last = await client.post(`/v1/webhooks/${all.guid}/test`);
    expect(last.status).toBe(202);
    const got = await receive(everything, 3);
    expect(got.map((each) => each.event.type)).toEqual([
      'action.version_saved',
      'action.deployed',
      'webhook.test',
    ]);
    expect((await receive(deploysOnly, 1)).map((each) => each.event.type)).toEqual(['action.deployed']);
    expect(receiver.at(disabledPath)).toEqual([]);
    const deliveries = await client.get(`/v1/webhooks/${disabled.guid}/deliveries`);
    expect(deliveries.body.total_count).toBe(0);
  });

  it("keeps each webhook's deliveries in the order of the changes", async () => {
    const { client } = context;
    const path = newPath('order');
    await newWebhook(client, path, ['action.version_saved']);
    const action = await createAction(client);
    // Slow answers, so later deliveries are waiting while earlier ones are sent.
    receiver.answer(path, (_request, count) => ({ status: count % 3 === 0 ? 503 : 204 }));
    const saves = 12;
    for (let version = 2; version <= saves; version++)
      expect(
        (await client.put(`/v1/actions/${action.guid}`, { prompt: `Hello {{name}} ${version}` })).status,
      ).toBe(200);
    const got = await eventually(async () => {
      const succeeded = new Map<number, Received>();
      for (const each of receiver.at(path)) succeeded.set(each.event.data.version, each);
      return succeeded.size === saves ? receiver.at(path) : undefined;
    }, 30_000);
    // Every retry came before anything later was sent: the versions never go backwards.
    const versions = got.map((each) => each.event.data.version as number);
    for (let index = 1; index < versions.length; index++)
      expect(versions[index]!).toBeGreaterThanOrEqual(versions[index - 1]!);
    expect([...new Set(versions)]).toEqual(Array.from({ length: saves }, (_, index) => index + 1));
  });

  it('words every unreachable receiver alike: a closed port, a silent one, an internal name', async () => {
    // A workspace of its own: its failing deliveries retry, and take their turns beside other
    // workspaces' work, not beside this file's other webhooks.
    const client = await newWorkspace(context.test);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    // Takes the connection and never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as AddressInfo).port;
    try {
      const urls = [
        `http://127.0.0.1:${closedPort}/closed`,
        `http://127.0.0.1:${silentPort}/silent`,
        `http://internal-name.localhost:${closedPort}/internal`,
      ];
      const deliveries = [];
      for (const url of urls) {
        const webhook = await client.post('/v1/webhooks', { url, events: ['*'] });
        expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
        await client.post(`/v1/webhooks/${webhook.body.guid}/test`);
        deliveries.push(
          eventually(async () => {
            const log = await client.get(`/v1/webhooks/${webhook.body.guid}/deliveries`);
            return log.body.data[0]?.last_error ? log.body.data[0] : undefined;
          }, 25_000),
        );
      }
      for (const delivery of await Promise.all(deliveries)) {
        expect(delivery).toMatchObject({
          response_status: null,
          last_error: 'the receiver could not be reached',
        });
      }
      for (const webhook of (await client.get('/v1/webhooks')).body.data)
        await client.delete(`/v1/webhooks/${webhook.guid}`);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 40_000);

  it('retries a failed delivery under the same webhook-id, does not follow a redirect, and redelivers on request', async () => {
    const { client } = context;
    const path = newPath('retry');
    const webhook = await newWebhook(client, path);
    receiver.answer(path, (_request, count) => ({ status: count === 1 ? 500 : 200 }));
    const test = await client.post(`/v1/webhooks/${webhook.guid}/test`);
    expect(test.body).toMatchObject({ event: 'webhook.test', status: 'pending', attempts: 0 });
    const [first, second] = await receive(path, 2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.headers['webhook-id']).toBe(test.body.guid);
    const delivered = await eventually(async () => {
      const log = await client.get(`/v1/webhooks/${webhook.guid}/deliveries`);
      return log.body.data[0].status === 'succeeded' ? log.body.data[0] : undefined;
    });
    expect(delivered).toMatchObject({
      attempts: 2,
      response_status: 200,
      // The status only: a receiver's error body can hold its own secrets.
      last_error: 'answered 500',
      next_attempt_at: null,
    });

    const redirected = newPath('redirected');
    const target = newPath('target');
    const moved = await newWebhook(client, redirected);
    receiver.answer(redirected, () => ({ status: 307, location: receiver.url(target) }));
    const movedTest = await client.post(`/v1/webhooks/${moved.guid}/test`);
    const pending = await eventually(async () => {
      const log = await client.get(`/v1/webhooks/${moved.guid}/deliveries`);
      return log.body.data[0].attempts >= 1 && log.body.data[0].response_status
        ? log.body.data[0]
        : undefined;
    });
    expect(pending).toMatchObject({ guid: movedTest.body.guid, status: 'pending', response_status: 307 });
    expect(pending.last_error).toContain('redirects are not followed');
    expect(Date.parse(pending.next_attempt_at)).toBeGreaterThan(Date.now() - 1_000);
    expect(receiver.at(target)).toEqual([]);
    // A delivery still pending is not redelivered: it is on its way, or waits for its retry.
    const stillPending = await client.post(
      `/v1/webhooks/${moved.guid}/deliveries/${movedTest.body.guid}/redeliver`,
    );
    expect(stillPending.status).toBe(409);

    // Redelivery sends a finished delivery again, under its own id.
    const again = await client.post(`/v1/webhooks/${webhook.guid}/deliveries/${test.body.guid}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ guid: test.body.guid, status: 'pending' });
    const third = (await receive(path, 3))[2]!;
    expect(third.headers['webhook-id']).toBe(test.body.guid);
    const missing = await client.post(`/v1/webhooks/${webhook.guid}/deliveries/${moved.guid}/redeliver`);
    expect(missing.status).toBe(404);
  });

  it('never fails a change because the job queue refuses: the delivery waits and goes out with the next', async () => {
    const { client, test } = context;
    const path = newPath('queue-down');
    const webhook = await newWebhook(client, path, ['action.version_saved']);
    const action = await createAction(client);
    await receive(path, 1);
    const saved = await whileQueueRefuses(test.platform, () =>
      client.put(`/v1/actions/${action.guid}`, { prompt: 'Saved while the queue is down {{name}}' }),
    );
    expect(saved.status).toBe(200);
    // Its delivery is stored (pending, unless a drain still running took it); the next change's
    // drain sends whatever waits first, then its own.
    const stored = await client.get(`/v1/webhooks/${webhook.guid}/deliveries`);
    expect(stored.body.total_count).toBe(2);
    await client.put(`/v1/actions/${action.guid}`, { prompt: 'And again {{name}}' });
    const got = await receive(path, 3);
    expect(got.map((each) => each.event.data.version)).toEqual([1, 2, 3]);
  });

  it('keeps webhooks and their deliveries to their workspace', async () => {
    const { client, test } = context;
    const webhook = await newWebhook(client, newPath('mine'));
    const other = await test.app.services.workspaces.createWorkspace(`other-${paths}`);
    const stranger = clientFor(test.app, other.apiKey, other.workspace.id);
    expect((await stranger.get(`/v1/webhooks/${webhook.guid}`)).status).toBe(404);
    expect((await stranger.get(`/v1/webhooks/${webhook.guid}/deliveries`)).status).toBe(404);
    expect((await stranger.post(`/v1/webhooks/${webhook.guid}/test`)).status).toBe(404);
    expect((await stranger.get('/v1/webhooks')).body.data).toEqual([]);
  });
});

describe.runIf(databaseUrl)('webhooks on two nodes', () => {
  it('delivers each event once between two nodes that share PostgreSQL and Redis', async () => {
    const database = await openEmptyDatabase();
    // Nodes of one deployment share the database, Redis and the instance secret.
    const shared = { ...fastLocal, DATABASE_URL: database.url!, LECTERN_SECRET: 'two nodes, one secret' };
    const first = await startTestApp(shared, database.handle);
    const second = await startTestApp(
      shared,
      await openDatabase({ databaseUrl: database.url! }, () => undefined),
    );
    try {
      first.platform.jobs.start();
      second.platform.jobs.start();
      const workspace = await first.app.services.workspaces.createWorkspace('two nodes');
      const [one, two] = [first, second].map((node) =>
        clientFor(node.app, workspace.apiKey, workspace.workspace.id),
      );
      const path = newPath('nodes');
      await newWebhook(one!, path, ['action.version_saved']);
      const action = await createAction(one!);
      const saves = 30;
      for (let version = 2; version <= saves; version++) {
        const node = version % 2 === 0 ? two! : one!;
        expect(
          (await node.put(`/v1/actions/${action.guid}`, { prompt: `v${version} {{name}}` })).status,
        ).toBe(200);
      }
      const got = await receive(path, saves, 30_000);
      // Settled: nothing more arrives.
      await eventually(async () => {
        const log = await one!.get(
          `/v1/webhooks/${(await one!.get('/v1/webhooks')).body.data[0].guid}/deliveries?limit=100`,
        );
        return log.body.data.every((each: { status: string }) => each.status === 'succeeded')
          ? true
          : undefined;
      });
      const ids = receiver.at(path).map((each) => each.headers['webhook-id']);
      expect(new Set(ids).size).toBe(saves);
      expect(ids.length).toBe(saves);
      expect(got.map((each) => each.event.data.version)).toEqual(
        Array.from({ length: saves }, (_, index) => index + 1),
      );
    } finally {
      await second.close();
      await first.close();
      await database.drop();
    }
  });
});
