import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createIdempotentRequests } from '../../src/features/runtime/runs/idempotency.js';
import { createIdempotentRequestRepository } from '../../src/features/runtime/runs/idempotent-request-repository.js';
import { rowsOf } from '../../src/platform/database/connection.js';
import { createAction, eventually, newWorkspace, useTestWorkspace } from '../helpers/test-app.js';

const context = useTestWorkspace({}, { startJobs: true });

const withKey = (key: string) => ({ 'idempotency-key': key });
const generationCount = async (actionGuid: string) =>
  Number((await context.client.get(`/v1/actions/${actionGuid}/data`)).headers['x-total-count']);

describe('Idempotency-Key on run requests', () => {
  it('answers a retried sync run with the first answer and stores one generation', async () => {
    const action = await createAction(context.client);
    const key = randomUUID();
    const url = `/v1/actions/${action.guid}/prompt`;
    const first = await context.client.request('POST', url, { input: { name: 'once' } }, withKey(key));
    const retry = await context.client.request('POST', url, { input: { name: 'once' } }, withKey(key));
    expect(first.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(await generationCount(action.guid)).toBe(1);
    // Without the key, the same request is a new run.
    await context.client.post(url, { input: { name: 'once' } });
    expect(await generationCount(action.guid)).toBe(2);
  });

  it('gives a retried stream request the same one-time URL, and the legacy route honours the key too', async () => {
    const action = await createAction(context.client);
    const key = randomUUID();
    const body = { action: action.guid, input: { name: 'streamed' }, streaming: true };
    const first = await context.client.request('POST', '/v1/actions', body, withKey(key));
    const retry = await context.client.request('POST', '/v1/actions', body, withKey(key));
    expect(retry.body.streaming_url).toBe(first.body.streaming_url);
    expect(retry.body.data_guid).toBe(first.body.data_guid);
  });

  it('refuses a key reused with another request (422) or while its first request runs (409)', async () => {
    const action = await createAction(context.client, { model: 'mock/slow', prompt: '{{text}}' });
    const url = `/v1/actions/${action.guid}/prompt`;
    const key = randomUUID();
    const slow = context.client.request('POST', url, { input: { text: 'a b c d e f g h' } }, withKey(key));
    // The first request holds the key once its row is written, unanswered.
    await eventually(async () => {
      const held = await context.test.platform.database.database.execute(
        sql`SELECT 1 FROM idempotent_requests WHERE key = ${key} AND response IS NULL`,
      );
      return rowsOf(held).length === 1 ? true : undefined;
    });
    const during = await context.client.request(
      'POST',
      url,
      { input: { text: 'a b c d e f g h' } },
      withKey(key),
    );
    expect(during.status).toBe(409);
    expect(during.body.error.code).toBe('idempotency_key_in_use');
    expect((await slow).status).toBe(200);
    const other = await context.client.request('POST', url, { input: { text: 'other' } }, withKey(key));
    expect(other.status).toBe(422);
    expect(other.body.message).toMatch(/Idempotency-Key: this key was used with another request/);
  });

  it('runs a retry again when the first request failed', async () => {
    const action = await createAction(context.client);
    await context.client.post(`/v1/actions/${action.guid}/disable`);
    const key = randomUUID();
    const url = `/v1/actions/${action.guid}/prompt`;
    expect((await context.client.request('POST', url, { input: { name: 'x' } }, withKey(key))).status).toBe(
      400,
    );
    await context.client.post(`/v1/actions/${action.guid}/enable`);
    const retry = await context.client.request('POST', url, { input: { name: 'x' } }, withKey(key));
    expect(retry.status).toBe(200);
    expect(retry.body.msg).toBe('Hello x');
  });

  it('keeps keys per workspace, refuses a malformed key and works on experiment runs', async () => {
    const key = randomUUID();
    const mine = await createAction(context.client);
    const other = await newWorkspace(context.test);
    const theirs = await createAction(other);
    const body = { input: { name: 'k' } };
    await context.client.request('POST', `/v1/actions/${mine.guid}/prompt`, body, withKey(key));
    const foreign = await other.request('POST', `/v1/actions/${theirs.guid}/prompt`, body, withKey(key));
    expect(foreign.status).toBe(200);
    const malformed = await context.client.request(
      'POST',
      `/v1/actions/${mine.guid}/prompt`,
      body,
      withKey('has spaces'),
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/idempotency-key/);

    const secondary = await createAction(context.client, { app: mine.app, prompt: 'B {{name}}' });
    const experiment = await context.client.post('/v1/experiments', {
      name: 'keyed',
      app_guid: mine.app,
      action_primary_guid: mine.guid,
      action_secondary_guid: secondary.guid,
    });
    const url = `/v1/experiments/${experiment.body.guid}/prompt`;
    const experimentKey = randomUUID();
    const first = await context.client.request('POST', url, body, withKey(experimentKey));
    const retry = await context.client.request('POST', url, body, withKey(experimentKey));
    expect(retry.body.data_guid).toBe(first.body.data_guid);
  });

  it('lets a retry run again once the first request was abandoned (15 minutes) or the key expired (a day)', async () => {
    const repository = createIdempotentRequestRepository(context.test.platform.database.database);
    let now = Date.now();
    const requests = createIdempotentRequests({ repository, now: () => now });
    const workspaceId = context.client.workspaceGuid;
    let runs = 0;
    const work = async () => ({ run: ++runs });

    // A node died while running the first request: its key stays unanswered.
    const abandoned = randomUUID();
    void requests.once(workspaceId, abandoned, ['r'], () => new Promise<never>(() => undefined));
    await eventually(async () => (await repository.find(workspaceId, abandoned)) ?? undefined);
    await expect(requests.once(workspaceId, abandoned, ['r'], work)).rejects.toMatchObject({ status: 409 });
    now += 16 * 60_000;
    expect(await requests.once(workspaceId, abandoned, ['r'], work)).toEqual({ run: 1 });

    const answered = randomUUID();
    expect(await requests.once(workspaceId, answered, ['r'], work)).toEqual({ run: 2 });
    expect(await requests.once(workspaceId, answered, ['r'], work)).toEqual({ run: 2 });
    now += 25 * 60 * 60_000;
    expect(await requests.once(workspaceId, answered, ['r'], work)).toEqual({ run: 3 });
  });
});
