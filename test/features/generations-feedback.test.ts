import { describe, expect, it } from 'vitest';
import { clientFor, createAction, newWorkspace, unknownGuid, useTestWorkspace } from '../helpers/test-app.js';

const context = useTestWorkspace();

async function generation() {
  const action = await createAction(context.client);
  const run = await context.client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'data' } });
  return { action, dataGuid: run.body.data_guid as string };
}

describe('feedback', () => {
  it('lets only its author change or delete feedback, or an admin, whose change is an audit record', async () => {
    const { client, test } = context;
    const { dataGuid } = await generation();
    const keyOf = async (role: string) =>
      clientFor(
        test.app,
        (await client.post('/v1/api_keys', { name: role, role })).body.api_key,
        client.workspaceGuid,
      );
    const author = await keyOf('runner');
    const otherRunner = await keyOf('runner');
    const viewer = await keyOf('viewer');
    const given = await author.post(`/v1/feedback/${dataGuid}`, { type: 'rating', value: 'positive' });
    expect(given.status).toBe(201);
    const path = `/v1/feedback/${given.body.guid}`;
    for (const other of [otherRunner, viewer]) {
      const overwritten = await other.put(path, { value: 'negative' });
      expect(overwritten.status).toBe(403);
      expect(overwritten.body.message).toMatch(/Only its author/);
      expect((await other.delete(path)).status).toBe(403);
    }
    expect((await client.get(path)).body).toMatchObject({ value: 'positive', deleted: false });
    // The author changes their own, unrecorded like the feedback itself.
    expect((await author.put(path, { value: 'neutral' })).body.value).toBe('neutral');
    // An admin (here the workspace's creator-less key) moderates it, and that is recorded.
    expect((await client.put(path, { value: 'flagged' })).body.value).toBe('flagged');
    expect((await client.delete(path)).body.deleted).toBe(true);
    const records = await client.get(`/v1/audit_log?resource=${given.body.guid}`);
    expect(records.body.data.map((record: any) => [record.action, record.status])).toEqual([
      ['DELETE /v1/feedback/{guid}', 200],
      ['PUT /v1/feedback/{guid}', 200],
    ]);
  });

  it('creates one record per request, keeps type and value as strings, and shows them on the generation', async () => {
    const { client } = context;
    const { dataGuid } = await generation();
    const rating = await client.post(`/v1/feedback/${dataGuid}`, {
      type: 'rating',
      value: 'positive',
      source: 'app',
      metadata: { screen: 'chat' },
    });
    expect(rating.status).toBe(201);
    expect(rating.body).toMatchObject({
      guid: expect.any(String),
      data: dataGuid,
      type: 'rating',
      value: 'positive',
      source: 'app',
      created_by_id: expect.any(String),
      metadata: { screen: 'chat' },
      deleted: false,
    });
    const numeric = await client.post(`/v1/feedback/${dataGuid}`, { type: 'rating', value: '5' });
    expect(numeric.body.value).toBe('5');
    const correction = await client.post(`/v1/feedback/${dataGuid}`, {
      type: 'correction',
      value: 'Hello, data!',
    });
    expect(correction.status).toBe(201);

    const record = await client.get(`/v1/data/${dataGuid}`);
    expect(
      record.body.feedback.map((item: { type: string; value: string }) => [item.type, item.value]),
    ).toEqual([
      ['rating', 'positive'],
      ['rating', '5'],
      ['correction', 'Hello, data!'],
    ]);
  });

  it('answers Data not found for unknown data or another workspace’s, and 400 for bad bodies', async () => {
    const { dataGuid } = await generation();
    const unknown = await context.client.post(`/v1/feedback/${unknownGuid}`, { type: 'rating', value: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Data not found');
    const other = await newWorkspace(context.test);
    const foreign = await other.post(`/v1/feedback/${dataGuid}`, { type: 'rating', value: 'x' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Data not found');
    const numberValue = await context.client.post(`/v1/feedback/${dataGuid}`, { type: 'rating', value: 5 });
    expect(numberValue.status).toBe(400);
    expect(numberValue.body.message).toMatch(/body\.value/);
    expect((await context.client.post(`/v1/feedback/${dataGuid}`, { value: 'x' })).status).toBe(400);
  });

  it('accepts the legacy collection route of older clients', async () => {
    const { dataGuid } = await generation();
    const response = await context.client.post('/v1/feedback/', {
      data: dataGuid,
      type: 'issue',
      value: 'too long',
      meta_data: { from: 'sdk' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      data: dataGuid,
      type: 'issue',
      value: 'too long',
      metadata: { from: 'sdk' },
    });
    const missing = await context.client.post('/v1/feedback/', { data: unknownGuid, type: 'x', value: 'y' });
    expect(missing.body.message).toBe('Data not found');
  });
});

describe('generations', () => {
  it('logs a generation made elsewhere and lists an Action’s generations newest first', async () => {
    const { client } = context;
    const { action, dataGuid } = await generation();
    const logged = await client.post('/v1/data', {
      action: action.guid,
      input: 'outside',
      output: 'made elsewhere',
      full_prompt_sent: [{ role: 'user', content: 'outside' }],
      num_input_tokens: 3,
      num_output_tokens: 2,
      model: 'gpt-4o-mini',
      model_provider: 'openai',
      latency_ms: 120,
      metadata: { via: 'gateway' },
    });
    expect(logged.status).toBe(201);
    expect(logged.body).toMatchObject({
      action: action.guid,
      output: 'made elsewhere',
      model: 'gpt-4o-mini',
      num_input_tokens: 3,
      source: 'api',
      metadata: { via: 'gateway' },
    });
    // A bare array (docs/api.md#actions) with its total in X-Total-Count.
    const list = await client.get(`/v1/actions/${action.guid}/data`);
    expect(list.headers['x-total-count']).toBe('2');
    expect(list.body.map((record: { guid: string }) => record.guid)).toEqual([logged.body.guid, dataGuid]);
    expect(list.body[0]).toMatchObject({ action: action.guid, action_guid: action.guid });
    const page = await client.get(`/v1/actions/${action.guid}/data?skip=1&limit=1`);
    expect(page.body.map((record: { guid: string }) => record.guid)).toEqual([dataGuid]);
    expect(page.headers['x-total-count']).toBe('2');
  });

  it('prices a logged call that names its model and tokens, and records the version it names', async () => {
    const { client } = context;
    const { action } = await generation();
    const logged = await client.post('/v1/data', {
      action: action.guid,
      input: 'outside',
      output: 'priced',
      num_input_tokens: 1_000,
      num_output_tokens: 500,
      model: 'gpt-4o-mini',
      model_provider: 'api.openai.com',
      version: 1,
      environment: 'production',
    });
    expect(logged.status).toBe(201);
    expect(logged.body).toMatchObject({ version: 1, environment: 'production' });
    // $0.15 in and $0.60 out per million tokens.
    expect(logged.body.cost.generation).toBeCloseTo((1_000 * 0.15 + 500 * 0.6) / 1_000_000, 12);
    const unpriced = await client.post('/v1/data', {
      action: action.guid,
      input: 'outside',
      output: 'unknown model',
      num_input_tokens: 10,
      num_output_tokens: 5,
      model: 'my-own-finetune-xyz',
    });
    expect(unpriced.body.cost).toBeNull();
    const noSuchVersion = await client.post('/v1/data', {
      action: action.guid,
      input: 'x',
      output: 'y',
      version: 99,
    });
    expect(noSuchVersion.status).toBe(400);
    expect(noSuchVersion.body.error.field).toBe('version');
    const batch = await client.post('/v1/data/batch', {
      records: [
        { action: action.guid, input: 'a', output: 'b' },
        { action: action.guid, input: 'a', output: 'b', version: 99 },
      ],
    });
    expect(batch.status).toBe(400);
    expect(batch.body.error.field).toBe('records.1.version');
  });

  it('refuses a log for a missing Action and hides records from other workspaces', async () => {
    const { action, dataGuid } = await generation();
    const other = await newWorkspace(context.test);
    expect((await other.get(`/v1/data/${dataGuid}`)).status).toBe(404);
    expect((await other.get(`/v1/actions/${action.guid}/data`)).status).toBe(404);
    const foreignLog = await other.post('/v1/data', { action: action.guid, input: 'x', output: 'y' });
    expect(foreignLog.status).toBe(404);
    const noOutput = await context.client.post('/v1/data', { action: action.guid, input: 'x' });
    expect(noOutput.status).toBe(400);
    expect(noOutput.body.message).toMatch(/body\.output/);
    expect((await context.client.get('/v1/data/nope')).status).toBe(400);
  });

  it('logs a batch together (POST /v1/data/batch), or nothing when one record is bad', async () => {
    const first = await createAction(context.client);
    const second = await createAction(context.client);
    const stored = await context.client.post('/v1/data/batch', {
      records: [
        {
          action: first.guid,
          input: [{ role: 'user', content: 'a' }],
          output: 'A',
          source: 'gateway',
          metadata: { status: 200 },
        },
        { action: second.guid, input: 'b', output: 'B', num_input_tokens: 3, num_output_tokens: 1 },
      ],
    });
    expect(stored.status).toBe(201);
    expect(stored.body.data).toEqual([{ guid: expect.any(String) }, { guid: expect.any(String) }]);
    const record = await context.client.get(`/v1/data/${stored.body.data[1].guid}`);
    expect(record.body).toMatchObject({
      action: second.guid,
      output: 'B',
      num_input_tokens: 3,
      source: 'api',
    });

    const foreign = await createAction(await newWorkspace(context.test));
    const refused = await context.client.post('/v1/data/batch', {
      records: [
        { action: first.guid, input: 'x', output: 'kept?' },
        { action: foreign.guid, input: 'x', output: 'y' },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('records.1.action');
    const listed = await context.client.get(`/v1/actions/${first.guid}/data`);
    expect(listed.body.map((row: { output: string }) => row.output)).toEqual(['A']);
    for (const body of [{ records: [] }, {}, { records: [{ action: first.guid, input: 'x' }] }]) {
      expect((await context.client.post('/v1/data/batch', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (
        await context.client.post('/v1/data/batch', {
          records: [{ action: unknownGuid, input: 'x', output: 'y' }],
        })
      ).status,
    ).toBe(400);
  });
});
