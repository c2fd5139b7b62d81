import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { workflowRunBlocks, workflowRuns, workflows } from '../../src/features/runtime/workflows/tables.js';
import {
  type Client,
  createAction,
  createApp,
  eventually,
  newWorkspace,
  unknownGuid,
  useTestWorkspace,
  whileQueueRefuses,
} from '../helpers/test-app.js';

const context = useTestWorkspace({}, { startJobs: true });

const local = (url: string) => url.replace('http://lectern.test', '');

async function createWorkflow(client: Client, name = 'Pipeline', app?: string) {
  const response = await client.post('/v1/workflows', { name, app: app ?? (await createApp(client)) });
  if (response.status !== 201) throw new Error(`workflow create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

async function setBlocks(client: Client, workflow: string, blocks: unknown[]) {
  const response = await client.put(`/v1/workflows/${workflow}/blocks`, { blocks });
  if (response.status !== 200) throw new Error(`blocks failed: ${JSON.stringify(response.body)}`);
  return response.body.blocks;
}

/** Polls the run result until it is no longer PENDING; answers the final response. */
function settled(client: Client, workflow: string, run: string) {
  return eventually(async () => {
    const poll = await client.get(`/v1/workflows/${workflow}/result/${run}`);
    return poll.status === 200 && poll.body.status === 'PENDING' ? undefined : poll;
  }, 20_000);
}

/** Two Actions and an output block: "{{input.topic}}" into the first, "{{blocks.first}}" into the second. */
async function chain(client: Client, secondModel = 'mock/echo') {
  const app = await createApp(client);
  const writer = await createAction(client, {
    app,
    name: 'Writer',
    model: 'mock/echo',
    prompt: 'Write about {{topic}}',
  });
  const summariser = await createAction(client, {
    app,
    name: 'Summariser',
    model: secondModel,
    prompt: 'Summary of: {{text}}',
    model_config: { num_retries: 0 },
  });
  const workflow = await createWorkflow(client, 'Chain', app);
  await setBlocks(client, workflow.guid, [
    { name: 'first', type: 'action', action: writer.guid, input: { topic: '{{input.topic}}' } },
    { name: 'second', type: 'action', action: summariser.slug, input: { text: '{{blocks.first}}' } },
    { name: 'answer', type: 'output' },
  ]);
  return { workflow, writer, summariser };
}

describe('workflows CRUD', () => {
  it('creates in an App, reads, renames, lists per App, and soft-deletes', async () => {
    const app = await createApp(context.client);
    const created = await context.client.post('/v1/workflows', { name: 'Daily Digest', app });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      guid: expect.any(String),
      name: 'Daily Digest',
      slug: 'daily-digest',
      app,
      created_by_id: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const again = await createWorkflow(context.client, 'Daily Digest', app);
    expect(again.slug).toBe('daily-digest-2');
    const guid = created.body.guid;
    expect((await context.client.get(`/v1/workflows/${guid}`)).body).toEqual(created.body);

    const renamed = await context.client.put(`/v1/workflows/${guid}`, { name: 'Weekly Digest' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ guid, name: 'Weekly Digest', slug: 'daily-digest' });

    const listed = await context.client.get(`/v1/apps/${app}/workflows`);
    expect(listed.body).toMatchObject({ total_count: 2, has_next_page: false });
    expect(listed.body.data.map((workflow: { guid: string }) => workflow.guid)).toEqual([again.guid, guid]);
    expect((await context.client.get(`/v1/apps/${app}/workflows?limit=1`)).body.has_next_page).toBe(true);

    const removed = await context.client.delete(`/v1/workflows/${guid}`);
    expect(removed.status).toBe(200);
    expect((await context.client.get(`/v1/workflows/${guid}`)).status).toBe(404);
    expect((await context.client.put(`/v1/workflows/${guid}`, { name: 'x' })).status).toBe(404);
    expect((await context.client.delete(`/v1/workflows/${guid}`)).status).toBe(404);
    expect((await context.client.post(`/v1/workflows/${guid}/trigger`, {})).status).toBe(404);
    expect((await context.client.get(`/v1/apps/${app}/workflows`)).body.total_count).toBe(1);
    const [row] = await context.test.platform.database.database
      .select()
      .from(workflows)
      .where(eq(workflows.id, guid));
    expect(row?.deletedAt).toBeInstanceOf(Date);
  });

  it('needs an existing App of the workspace and a valid body', async () => {
    const unknownApp = await context.client.post('/v1/workflows', { name: 'x', app: unknownGuid });
    expect(unknownApp.status).toBe(404);
    expect(unknownApp.body.message).toBe('App not found');
    for (const body of [
      { name: 'x' },
      { app: unknownGuid },
      { name: 'x', app: 'nope' },
      { name: '', app: unknownGuid },
    ]) {
      expect((await context.client.post('/v1/workflows', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await context.client.get(`/v1/apps/${unknownGuid}/workflows`)).status).toBe(404);
    const workflow = await createWorkflow(context.client);
    const stranger = await newWorkspace(context.test);
    expect((await stranger.get(`/v1/workflows/${workflow.guid}`)).status).toBe(404);
    expect((await stranger.get(`/v1/workflows/${workflow.guid}/blocks`)).status).toBe(404);
    expect((await stranger.post(`/v1/workflows/${workflow.guid}/trigger`, {})).status).toBe(404);
    expect((await stranger.post('/v1/workflows', { name: 'x', app: workflow.app })).status).toBe(404);
    expect((await stranger.get(`/v1/apps/${workflow.app}/workflows`)).status).toBe(404);
  });
});

describe('workflow blocks', () => {
  it('replaces and lists the ordered blocks', async () => {
    const action = await createAction(context.client, { slug: 'block-action' });
    const workflow = await createWorkflow(context.client);
    expect((await context.client.get(`/v1/workflows/${workflow.guid}/blocks`)).body).toEqual({ blocks: [] });
    const stored = await setBlocks(context.client, workflow.guid, [
      { name: 'greet', type: 'action', action: 'block-action' },
      { name: 'done', type: 'output' },
    ]);
    expect(stored).toEqual([
      {
        guid: expect.any(String),
        name: 'greet',
        type: 'action',
        action: action.guid,
        action_name: 'Greeter',
        input: null,
      },
      {
        guid: expect.any(String),
        name: 'done',
        type: 'output',
        action: null,
        action_name: null,
        input: null,
      },
    ]);
    expect((await context.client.get(`/v1/workflows/${workflow.guid}/blocks`)).body.blocks).toEqual(stored);
    await setBlocks(context.client, workflow.guid, [{ name: 'only', type: 'action', action: action.guid }]);
    expect((await context.client.get(`/v1/workflows/${workflow.guid}/blocks`)).body.blocks).toHaveLength(1);
  });

  it('refuses invalid blocks with a 400 naming the block, storing nothing', async () => {
    const action = await createAction(context.client);
    const foreign = await createAction(await newWorkspace(context.test));
    const workflow = await createWorkflow(context.client);
    await setBlocks(context.client, workflow.guid, [{ name: 'kept', type: 'action', action: action.guid }]);
    const run = (name: string, extra: Record<string, unknown> = {}) => ({
      name,
      type: 'action',
      action: action.guid,
      ...extra,
    });
    const cases: [unknown[], string][] = [
      [[run('a'), run('a')], 'blocks.1.name'],
      [[{ name: 'a', type: 'action' }], 'blocks.0.action'],
      [[run('a', { action: unknownGuid })], 'blocks.0.action'],
      [[run('a', { action: foreign.guid })], 'blocks.0.action'],
      [[{ name: 'out', type: 'output' }], 'blocks.0'],
      [[run('a'), { name: 'o1', type: 'output' }, { name: 'o2', type: 'output' }], 'blocks.2'],
      [[run('a'), { name: 'o', type: 'output', action: action.guid }], 'blocks.1'],
      [[run('a', { input: { name: '{{secret}}' } })], 'blocks.0.input.name'],
      [[run('a', { input: { name: '{{blocks.b}}' } }), run('b')], 'blocks.0.input.name'],
      [[run('a', { input: { name: '{{blocks.a}}' } })], 'blocks.0.input.name'],
      [[run('a', { input: { name: '{% if %}' } })], 'blocks.0.input.name'],
      [[run('has space')], 'blocks.0.name'],
      [[run('a', { type: 'loop' })], 'blocks.0.type'],
      [[run('a', { colour: 'red' })], 'blocks.0'],
    ];
    for (const [blocks, field] of cases) {
      const response = await context.client.put(`/v1/workflows/${workflow.guid}/blocks`, { blocks });
      expect(response.status, JSON.stringify(blocks)).toBe(400);
      expect(response.body.message, JSON.stringify(blocks)).toContain(field);
    }
    const kept = await context.client.get(`/v1/workflows/${workflow.guid}/blocks`);
    expect(kept.body.blocks.map((block: { name: string }) => block.name)).toEqual(['kept']);
  });
});

describe('trigger and results', () => {
  it('runs a three-block chain after dispatch; results, dataset and block result URLs agree', async () => {
    const { workflow, writer, summariser } = await chain(context.client, 'mock/slow');
    const triggered = await context.client.post(`/v1/workflows/${workflow.guid}/trigger`, {
      input: [
        { key: 'topic', value: 'otters' },
        { key: 'extra', value: { nested: true } },
        { key: 'nothing', value: null },
      ],
    });
    expect(triggered.status).toBe(200);
    expect(triggered.body).toEqual({
      msg: 'Workflow triggered',
      status: 'success',
      blocks: [
        {
          feedback_url: expect.stringMatching(/^http:\/\/lectern\.test\/v1\/feedback\/[0-9a-f-]{36}$/),
          data_guid: expect.any(String),
          result_url: expect.stringMatching(
            new RegExp(
              `^http://lectern\\.test/v1/workflows/${workflow.guid}/result/[0-9a-f-]{36}/blocks/[0-9a-f-]{36}$`,
            ),
          ),
          action: { guid: writer.guid, name: 'Writer' },
        },
        expect.objectContaining({ action: { guid: summariser.guid, name: 'Summariser' } }),
      ],
      run_guid: expect.any(String),
      has_output_block: true,
    });
    const run = triggered.body.run_guid;
    const pending = await context.client.get(`/v1/workflows/${workflow.guid}/result/${run}`);
    expect(pending.body).toEqual({ result: '', status: 'PENDING' });

    const done = await settled(context.client, workflow.guid, run);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ result: 'Summary of: Write about otters', status: 'SUCCESS' });

    // The run is one trace: its root, and each block's run under it (docs/traces.md#lecterns-own-runs).
    const [firstGeneration, secondGeneration] = await Promise.all(
      triggered.body.blocks.map(
        async (block: { data_guid: string }) =>
          (await context.client.get(`/v1/data/${block.data_guid}`)).body,
      ),
    );
    expect(secondGeneration.trace_id).toBe(firstGeneration.trace_id);
    const trace = await eventually(async () => {
      const found = await context.client.get(`/v1/traces/${firstGeneration.trace_id}`);
      return found.status === 200 && found.body.spans.length >= 5 ? found.body : undefined;
    });
    expect(trace.name).toBe('workflow run');
    const root = trace.spans[0];
    expect(root.attributes).toMatchObject({ 'lectern.workflow': workflow.guid, 'lectern.workflow_run': run });
    const blockRuns = trace.spans.filter((span: { name: string }) => span.name.startsWith('run '));
    expect(blockRuns.map((span: { parent_span_id: string }) => span.parent_span_id)).toEqual([
      root.span_id,
      root.span_id,
    ]);

    const dataset = await context.client.get(`/v1/workflows/${workflow.guid}/result/${run}/dataset`);
    expect(dataset.body).toEqual({
      final: 'Summary of: Write about otters',
      status: 'SUCCESS',
      blocks: [
        { guid: expect.any(String), name: 'first', output: 'Write about otters', status: 'SUCCESS' },
        {
          guid: expect.any(String),
          name: 'second',
          output: 'Summary of: Write about otters',
          status: 'SUCCESS',
        },
        {
          guid: expect.any(String),
          name: 'answer',
          output: 'Summary of: Write about otters',
          status: 'SUCCESS',
        },
      ],
    });

    const [first, second] = triggered.body.blocks;
    const blockResult = await context.client.get(local(first.result_url));
    expect(blockResult.body).toEqual({
      msg: 'Write about otters',
      status: 'SUCCESS',
      data_guid: first.data_guid,
      feedback_url: first.feedback_url,
    });
    const record = await context.client.get(`/v1/data/${second.data_guid}`);
    expect(record.body).toMatchObject({
      action: summariser.guid,
      output: 'Summary of: Write about otters',
      source: 'workflow',
    });
    const feedback = await context.client.post('/v1/feedback', {
      data: first.data_guid,
      type: 'rating',
      value: 'good',
    });
    expect(feedback.status).toBe(201);
  });

  it('passes the previous output on when a block maps no input, and the trigger input to the first', async () => {
    const app = await createApp(context.client);
    const greeter = await createAction(context.client, { app, prompt: 'Hello {{name}}' });
    const quoter = await createAction(context.client, { app, name: 'Quoter', prompt: 'She said: {{said}}' });
    const workflow = await createWorkflow(context.client, 'Plain', app);
    await setBlocks(context.client, workflow.guid, [
      { name: 'greet', type: 'action', action: greeter.guid },
      { name: 'quote', type: 'action', action: quoter.guid },
    ]);
    const triggered = await context.client.post(`/v1/workflows/${workflow.guid}/trigger`, {
      input: [{ key: 'name', value: 'Ada' }],
    });
    expect(triggered.body.has_output_block).toBe(false);
    const done = await settled(context.client, workflow.guid, triggered.body.run_guid);
    // No output block: the result is the last block's output.
    expect(done.body).toEqual({ result: 'She said: Hello Ada', status: 'SUCCESS' });
  });

  it('stops at a failing block: the run, its dataset and the block result URLs say why', async () => {
    const { workflow } = await chain(context.client, 'mock/error');
    const triggered = await context.client.post(`/v1/workflows/${workflow.guid}/trigger`, {
      input: [{ key: 'topic', value: 'volcanoes' }],
    });
    const run = triggered.body.run_guid;
    const failed = await settled(context.client, workflow.guid, run);
    expect(failed.status).toBe(502);
    expect(failed.body.message).toMatch(/^The workflow run failed: block "second" failed: .*unavailable/);
    const dataset = await context.client.get(`/v1/workflows/${workflow.guid}/result/${run}/dataset`);
    expect(dataset.status).toBe(200);
    expect(dataset.body.final).toBe('');
    expect(dataset.body.status).toBe('FAILED');
    expect(dataset.body.blocks.map((block: { status: string }) => block.status)).toEqual([
      'SUCCESS',
      'FAILED',
      'SKIPPED',
    ]);
    expect(dataset.body.blocks[0].output).toBe('Write about volcanoes');
    const secondResult = await context.client.get(local(triggered.body.blocks[1].result_url));
    expect(secondResult.status).toBe(502);
    expect(secondResult.body.message).toMatch(/^The run failed: .*unavailable/);
    expect((await context.client.get(`/v1/data/${triggered.body.blocks[1].data_guid}`)).status).toBe(404);
  });

  it('fails a block whose input names a key the trigger did not give, naming it', async () => {
    const { workflow } = await chain(context.client);
    const triggered = await context.client.post(`/v1/workflows/${workflow.guid}/trigger`, {
      input: [{ key: 'subject', value: 'otters' }],
    });
    const failed = await settled(context.client, workflow.guid, triggered.body.run_guid);
    expect(failed.status, JSON.stringify(failed.body)).toBe(400);
    expect(failed.body.message).toContain('blocks.first.input.topic');
    expect(failed.body.message).toContain('input.topic');
  });

  it('answers 404 Workflow has no blocks, 404 for unknown runs and 400 for bad input', async () => {
    const empty = await createWorkflow(context.client);
    const noBlocks = await context.client.post(`/v1/workflows/${empty.guid}/trigger`, {});
    expect(noBlocks.status).toBe(404);
    expect(noBlocks.body.message).toBe('Workflow has no blocks');

    const { workflow } = await chain(context.client);
    const badInputs = [
      { input: { topic: 'x' } },
      { input: [{ key: 'topic', value: 3 }] },
      { input: [{ key: 'topic', value: ['a'] }] },
      { input: [{ key: 'topic' }] },
      {
        input: [
          { key: 'topic', value: 'a' },
          { key: 'topic', value: 'b' },
        ],
      },
      { input: [{ key: 'not a key', value: 'a' }] },
      { input: [], extra: 1 },
    ];
    for (const body of badInputs) {
      expect(
        (await context.client.post(`/v1/workflows/${workflow.guid}/trigger`, body)).status,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect((await context.client.get(`/v1/workflows/${workflow.guid}/result/${unknownGuid}`)).status).toBe(
      404,
    );
    expect(
      (await context.client.get(`/v1/workflows/${workflow.guid}/result/${unknownGuid}/dataset`)).status,
    ).toBe(404);
    const triggered = await context.client.post(`/v1/workflows/${workflow.guid}/trigger`, {
      input: [{ key: 'topic', value: 'x' }],
    });
    const run = triggered.body.run_guid;
    expect((await context.client.get(`/v1/workflows/${empty.guid}/result/${run}`)).status).toBe(404);
    expect(
      (await context.client.get(`/v1/workflows/${workflow.guid}/result/${run}/blocks/${unknownGuid}`)).status,
    ).toBe(404);
    const stranger = await newWorkspace(context.test);
    expect((await stranger.get(`/v1/workflows/${workflow.guid}/result/${run}`)).status).toBe(404);
    expect((await stranger.get(`/v1/workflows/${workflow.guid}/result/${run}/dataset`)).status).toBe(404);
    expect((await context.client.get(`/v1/workflows/${workflow.guid}/result/not-a-guid`)).status).toBe(400);
    await settled(context.client, workflow.guid, run);
  });
});

it('leaves no run pending when its first block cannot be queued', async () => {
  const { workflow } = await chain(context.client);
  const triggered = await whileQueueRefuses(context.test.platform, () =>
    context.client.post(`/v1/workflows/${workflow.guid}/trigger`, { input: [{ key: 'topic', value: 'x' }] }),
  );
  expect(triggered.status).toBe(503);
  expect(triggered.body.error).toMatchObject({ code: 'queue_unavailable' });
  const database = context.test.platform.database.database;
  const [run] = await database.select().from(workflowRuns).where(eq(workflowRuns.workflowId, workflow.guid));
  expect(run!.status).toBe('failed');
  const [first] = await database
    .select()
    .from(workflowRunBlocks)
    .where(eq(workflowRunBlocks.runId, run!.id))
    .orderBy(workflowRunBlocks.position);
  expect([first!.status, first!.errorCode, first!.error]).toEqual([
    'failed',
    'queue_unavailable',
    'The job queue is unavailable: queue down',
  ]);
});

describe('playground (POST /v1/workflows/playground)', () => {
  it('runs temporary blocks without changing the stored ones, or the stored ones when none are given', async () => {
    const { workflow, writer } = await chain(context.client);
    const before = (await context.client.get(`/v1/workflows/${workflow.guid}/blocks`)).body;
    const trial = await context.client.post('/v1/workflows/playground', {
      workflow: workflow.guid,
      input: [{ key: 'topic', value: 'tea' }],
      blocks: [
        { name: 'only', type: 'action', action: writer.guid, input: { topic: 'green {{input.topic}}' } },
      ],
    });
    expect(trial.status).toBe(200);
    expect(trial.body).toMatchObject({
      msg: 'Workflow triggered',
      status: 'success',
      has_output_block: false,
    });
    expect(trial.body.blocks).toHaveLength(1);
    const done = await settled(context.client, workflow.guid, trial.body.run_guid);
    expect(done.body).toEqual({ result: 'Write about green tea', status: 'SUCCESS' });
    expect((await context.client.get(`/v1/workflows/${workflow.guid}/blocks`)).body).toEqual(before);

    const stored = await context.client.post('/v1/workflows/playground', {
      workflow: workflow.guid,
      input: [{ key: 'topic', value: 'tea' }],
    });
    expect(stored.body.blocks).toHaveLength(2);
    expect((await settled(context.client, workflow.guid, stored.body.run_guid)).body.result).toBe(
      'Summary of: Write about tea',
    );

    const invalid = await context.client.post('/v1/workflows/playground', {
      workflow: workflow.guid,
      blocks: [{ name: 'out', type: 'output' }],
    });
    expect(invalid.status).toBe(400);
    expect((await context.client.post('/v1/workflows/playground', { workflow: unknownGuid })).status).toBe(
      404,
    );
    expect((await context.client.post('/v1/workflows/playground', {})).status).toBe(400);
  });
});
