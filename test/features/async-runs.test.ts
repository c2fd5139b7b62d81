import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { asyncRunJob } from '../../src/features/runtime/runs/index.js';
import { asyncRuns } from '../../src/features/runtime/runs/tables.js';
import {
  createAction,
  eventually,
  unknownGuid,
  useTestWorkspace,
  whileQueueRefuses,
} from '../helpers/test-app.js';

const context = useTestWorkspace({}, { startJobs: true });

function resultPath(resultUrl: string): string {
  expect(resultUrl).toMatch(/^http:\/\/lectern\.test\/v1\/actions\/result\/[0-9a-f-]{36}$/);
  return resultUrl.replace('http://lectern.test', '');
}

describe('async runs', () => {
  it('answers Running with a result URL, the generation GUID and its feedback URL; the URL polls PENDING, then SUCCESS with the text', async () => {
    const action = await createAction(context.client, { model: 'mock/slow', prompt: '{{text}}' });
    const response = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { text: 'one two three four five six' },
      async_mode: true,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      msg: 'Running',
      full_prompt_sent: null,
      result_url: expect.any(String),
      data_guid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      feedback_url: `http://lectern.test/v1/feedback/${response.body.data_guid}`,
    });
    const path = resultPath(response.body.result_url);

    const pending = await context.client.get(path);
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({ msg: 'Generation in Progress', status: 'PENDING' });

    const done = await eventually(async () => {
      const poll = await context.client.get(path);
      return poll.body.status === 'SUCCESS' ? poll.body : undefined;
    });
    expect(done.msg).toBe('one two three four five six');
    expect(done.data_guid).toBe(response.body.data_guid);
    const record = await context.client.get(`/v1/data/${done.data_guid}`);
    expect(record.body).toMatchObject({ output: done.msg, source: 'async', version: 1 });
  });

  it('answers a failed run’s poll with an error naming the failure, never PENDING forever', async () => {
    const action = await createAction(context.client, { model: 'mock/error' });
    const response = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { name: 'x' },
      async_mode: true,
    });
    const path = resultPath(response.body.result_url);
    const failed = await eventually(async () => {
      const poll = await context.client.get(path);
      return poll.status !== 200 ? poll : undefined;
    });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toMatch(/^The run failed: .*unavailable/);
  });

  it('refuses bad input at request time and hides other workspaces’ results', async () => {
    const action = await createAction(context.client, { prompt: '{{a}} {{b}}' });
    const bad = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
      input: 'x',
      async_mode: true,
    });
    expect(bad.status).toBe(400);
    expect((await context.client.get(`/v1/actions/result/${unknownGuid}`)).status).toBe(404);
    expect((await context.client.get('/v1/actions/result/not-a-guid')).status).toBe(400);
  });

  it('runs the version resolved at request time even when another is deployed before the job runs', async () => {
    const { client } = context;
    const action = await createAction(client, { model: 'mock/slow', prompt: 'v1 {{x}}' });
    await client.put(`/v1/actions/${action.guid}`, { prompt: 'v2 {{x}}' });
    const response = await client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { x: 'y' },
      async_mode: true,
    });
    await client.post(`/v1/actions/${action.guid}/deploy`, { version: 2, environment: 'production' });
    const done = await eventually(async () => {
      const poll = await client.get(resultPath(response.body.result_url));
      return poll.body.status === 'SUCCESS' ? poll.body : undefined;
    });
    expect(done.msg).toBe('v1 y');
  });
});

it('leaves no run pending when the job cannot be queued', async () => {
  const action = await createAction(context.client);
  const response = await whileQueueRefuses(context.test.platform, () =>
    context.client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'x' }, async_mode: true }),
  );
  // The client may retry later: a queue that cannot take the job is a 503, not a server error.
  expect(response.status).toBe(503);
  expect(response.body.error).toMatchObject({ code: 'queue_unavailable' });
  const rows = await context.test.platform.database.database
    .select()
    .from(asyncRuns)
    .where(eq(asyncRuns.actionId, action.guid));
  expect(rows.map((row) => [row.status, row.errorCode, row.error])).toEqual([
    ['failed', 'queue_unavailable', 'The job queue is unavailable: queue down'],
  ]);
});

it('runs a job queued by the release before, whose request has the body’s names', async () => {
  const action = await createAction(context.client, { prompt: '{{text}}' });
  const workspaceId = (await context.test.app.services.workspaces.authenticate(context.client.apiKey))!
    .workspace.id;
  const runId = randomUUID();
  const generationId = randomUUID();
  await context.test.platform.database.database
    .insert(asyncRuns)
    .values({ id: runId, workspaceId, actionId: action.guid, generationId, status: 'pending' });
  await context.test.platform.jobs.enqueue(asyncRunJob, {
    runId,
    workspaceId,
    actionId: action.guid,
    allowModelOverrides: false,
    // What the previous release's queue() stored: the run body, pinned, with async_mode false.
    request: {
      input: { text: 'queued before' },
      version: 1,
      extUserId: 'user-7',
      async_mode: false,
      streaming: false,
    },
    source: 'async',
    experimentId: null,
  } as never);
  const done = await eventually(async () => {
    const poll = await context.client.get(`/v1/actions/result/${runId}`);
    return poll.body.status === 'SUCCESS' ? poll.body : undefined;
  });
  expect(done.msg).toBe('queued before');
  const record = await context.client.get(`/v1/data/${generationId}`);
  expect(record.body).toMatchObject({ ext_user_id: 'user-7', version: 1 });
});
