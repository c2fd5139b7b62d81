import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createSweepRunner, defaultSweepPace } from '../../src/features/quality/monitors/index.js';
import { signedInPerson } from '../helpers/people.js';
import {
  type Client,
  createAction,
  eventually,
  newWorkspace,
  useTestWorkspace,
} from '../helpers/test-app.js';

// Monitors (docs/evaluations.md#monitors): a sampled share of an Action's production generations is
// scored in the background by a worker's sweep; the scores show on the generation, in a
// "score below" filter of the list, and as daily means in the statistics.
const context = useTestWorkspace({}, { startJobs: true, ownJobQueue: true });

async function evaluator(client: Client, name: string, type: string, config: Record<string, unknown> = {}) {
  const created = await client.post('/v1/evaluators', { name, type, config });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.guid as string;
}

const run = async (client: Client, action: string, body: Record<string, unknown>) => {
  const answer = await client.post(`/v1/actions/${action}/prompt`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data_guid as string;
};

/** The scores a monitor gave the generation, once it has. */
const scoresOf = (client: Client, generation: string) =>
  eventually(async () => (await client.get(`/v1/data/${generation}`)).body.scores, 20_000);

describe('monitors', () => {
  it('scores sampled production generations in the background; drafts and evaluations are left out', async () => {
    const { client } = context;
    const action = (await createAction(client, { prompt: '{{answer}}' })).guid;
    const startsWithP = await evaluator(client, 'Starts with P', 'regex', { pattern: '^P' });
    const exact = await evaluator(client, 'Exact', 'exact_match');
    const quick = await evaluator(client, 'Quick', 'latency', { max_ms: 60_000 });
    const created = await client.post('/v1/monitors', {
      action,
      evaluators: [startsWithP, exact, quick],
      sample_rate: 1,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      action,
      sample_rate: 1,
      environment: null,
      evaluators: [startsWithP, exact, quick],
    });

    const draft = await run(client, action, {
      input: { answer: 'Pau' },
      draft: { prompt: 'draft {{answer}}' },
    });
    const dataset = (await client.post('/v1/datasets', { name: 'One' })).body.guid;
    await client.post(`/v1/datasets/${dataset}/items`, { items: [{ input: { answer: 'Pau' } }] });
    const evaluation = (await client.post('/v1/evaluations', { action, dataset, evaluators: [startsWithP] }))
      .body.guid;
    await eventually(async () =>
      (await client.get(`/v1/evaluations/${evaluation}`)).body.status === 'SUCCESS' ? true : undefined,
    );
    const evaluated = (await client.get(`/v1/evaluations/${evaluation}/results`)).body.data[0].data_guid;
    const paris = await run(client, action, { input: { answer: 'Paris' } });
    const lyon = await run(client, action, { input: { answer: 'Lyon' } });
    const pau = await run(client, action, { input: { answer: 'Pau' } });

    expect(await scoresOf(client, paris)).toEqual({ [startsWithP]: 1, [exact]: null, [quick]: 1 });
    expect(await scoresOf(client, lyon)).toMatchObject({ [startsWithP]: 0 });
    expect(await scoresOf(client, pau)).toMatchObject({ [startsWithP]: 1 });
    // The sweep reads generations in the order they were made: the draft and the evaluation's, made
    // first, were passed over.
    expect((await client.get(`/v1/data/${draft}`)).body.scores).toBeUndefined();
    expect((await client.get(`/v1/data/${evaluated}`)).body.scores).toBeUndefined();

    const below = await client.get(`/v1/data?action=${action}&evaluator=${startsWithP}&score_below=0.5`);
    expect(below.body.data.map((generation: any) => generation.guid)).toEqual([lyon]);
    const missingEvaluator = await client.get(`/v1/data?action=${action}&score_below=0.5`);
    expect(missingEvaluator.status).toBe(400);
    expect(missingEvaluator.body.message).toMatch(/^score_below: /);

    const statistics = await client.get(`/v1/statistics?action=${action}`);
    const today = new Date().toISOString().slice(0, 10);
    expect(statistics.body.scores).toEqual(
      expect.arrayContaining([
        { day: today, evaluator: startsWithP, name: 'Starts with P', mean: 0.666667, n: 3 },
        { day: today, evaluator: quick, name: 'Quick', mean: 1, n: 3 },
      ]),
    );
    // Exact match needs an expected output that live traffic does not have: every score is null.
    expect(statistics.body.scores.some((score: any) => score.evaluator === exact)).toBe(false);
  });

  it('samples by the generation’s GUID and only in its environment', async () => {
    const { client } = context;
    const action = (await createAction(client, { prompt: '{{answer}}' })).guid;
    const startsWithP = await evaluator(client, 'Starts with P', 'regex', { pattern: '^P' });
    await client.post(`/v1/actions/${action}/deploy`, { environment: 'staging', version: 1 });
    const monitor = await client.post('/v1/monitors', {
      action,
      evaluators: [startsWithP],
      sample_rate: 0.5,
      environment: 'production',
    });
    expect(monitor.status).toBe(201);
    const staging = await run(client, action, { input: { answer: 'Paris' }, environment: 'staging' });
    const generations: string[] = [];
    for (let index = 0; index < 12; index++)
      generations.push(await run(client, action, { input: { answer: 'Paris' } }));
    // The sample is the generations whose GUID's first 32 bits fall below the rate.
    const inSample = (guid: string) => Number.parseInt(guid.slice(0, 8), 16) / 2 ** 32 < 0.5;
    // Once the sweep has read a later generation, it has read (and sampled) these.
    const last = await run(client, action, { input: { answer: 'Paris' } });
    await eventually(async () => {
      const found = await client.get(`/v1/monitors/${monitor.body.guid}`);
      const lastGeneration = await client.get(`/v1/data/${last}`);
      return new Date(found.body.scanned_until) >= new Date(lastGeneration.body.created_at)
        ? true
        : undefined;
    }, 20_000);
    for (const guid of generations) {
      const scores = (await client.get(`/v1/data/${guid}`)).body.scores;
      expect(scores, guid).toEqual(inSample(guid) ? { [startsWithP]: 1 } : undefined);
    }
    expect((await client.get(`/v1/data/${staging}`)).body.scores).toBeUndefined();
  });

  it('refuses bad settings, other workspaces’ Actions and evaluators, and viewers', async () => {
    const { client, test } = context;
    const action = (await createAction(client)).guid;
    const check = await evaluator(client, 'Check', 'json_valid');
    const other = await newWorkspace(test);
    const theirs = await evaluator(other, 'Theirs', 'json_valid');
    const theirAction = (await createAction(other)).guid;
    const refusals: [Record<string, unknown>, number, RegExp][] = [
      [{ action, evaluators: [check], sample_rate: 0 }, 400, /sample_rate: must be above 0/],
      [{ action, evaluators: [check], sample_rate: 1.5 }, 400, /sample_rate/],
      [{ action, evaluators: [], sample_rate: 1 }, 400, /evaluators/],
      [{ action, evaluators: [theirs], sample_rate: 1 }, 404, /Evaluator not found/],
      [{ action: theirAction, evaluators: [check], sample_rate: 1 }, 404, /Action not found/],
      [{ action, evaluators: [check], sample_rate: 1, environment: 'no spaces' }, 400, /environment/],
    ];
    for (const [body, status, message] of refusals) {
      const refused = await client.post('/v1/monitors', body);
      expect(refused.status, JSON.stringify(body)).toBe(status);
      expect(refused.body.message, JSON.stringify(body)).toMatch(message);
    }
    expect((await client.get(`/v1/monitors?action=${action}`)).body.total_count).toBe(0);
    const viewer = await signedInPerson(test, client.workspaceGuid, 'viewer');
    expect(
      (await viewer.client.post('/v1/monitors', { action, evaluators: [check], sample_rate: 1 })).status,
    ).toBe(403);
    const created = await client.post('/v1/monitors', { action, evaluators: [check], sample_rate: 1 });
    expect((await viewer.client.get(`/v1/monitors/${created.body.guid}`)).status).toBe(200);
    expect((await other.get(`/v1/monitors/${created.body.guid}`)).status).toBe(404);
    expect((await client.put(`/v1/monitors/${created.body.guid}`, { sample_rate: -1 })).status).toBe(400);
    expect((await client.delete(`/v1/monitors/${created.body.guid}`)).body).toEqual({
      guid: created.body.guid,
      deleted: true,
    });
    expect((await client.get(`/v1/monitors/${created.body.guid}`)).status).toBe(404);
  });
});

it('fails a sweep whose evaluator could not be read, for its job to retry, and moves nothing past', async () => {
  const marks: string[] = [];
  const stored: unknown[] = [];
  const monitor = {
    id: randomUUID(),
    workspaceId: randomUUID(),
    actionId: randomUUID(),
    evaluatorIds: [randomUUID()],
    sampleRate: 1,
  };
  const runner = createSweepRunner({
    repository: {
      find: async () => monitor,
      nextGenerations: async () => [
        { id: randomUUID(), input: {}, output: 'x', latencyMs: 1, cost: null, createdAt: new Date() },
      ],
      moveMark: async (_monitor: string, lastId: string) => void marks.push(lastId),
    } as never,
    scores: { store: async (scores) => void stored.push(...scores) },
    jobs: { enqueue: async () => 'job' },
    tools: {} as never,
    evaluator: async () => {
      throw new Error('connection lost');
    },
    pace: defaultSweepPace,
    logger: pino({ level: 'silent' }),
  });
  const sweep = { workspaceId: monitor.workspaceId, monitorId: monitor.id, sweep: 0 };
  await expect(
    runner.process(sweep, { jobId: 'job', attempt: 1, signal: new AbortController().signal }),
  ).rejects.toThrow('connection lost');
  // Nothing moved past: the job's next attempt scores the same generations.
  expect([marks, stored]).toEqual([[], []]);
});
