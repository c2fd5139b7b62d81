import { describe, expect, it } from 'vitest';
import { itemJobKey } from '../../src/features/quality/evaluations/index.js';
import { signedInPerson } from '../helpers/people.js';
import {
  type Client,
  createAction,
  eventually,
  newWorkspace,
  useTestWorkspace,
} from '../helpers/test-app.js';

// Evaluation runs (docs/evaluations.md#evaluation-runs): an Action version over a dataset version,
// each item run as an `evaluation` generation by the job queue and scored; the summary's 95%
// intervals, cancelling, comparing two runs, and the refusals that store nothing.
const context = useTestWorkspace({}, { startJobs: true, ownJobQueue: true });

async function dataset(client: Client, items: Record<string, unknown>[]) {
  const created = await client.post('/v1/datasets', { name: 'Questions' });
  expect(created.status).toBe(201);
  if (items.length > 0)
    expect((await client.post(`/v1/datasets/${created.body.guid}/items`, { items })).status).toBe(201);
  return created.body.guid as string;
}

async function evaluator(client: Client, type: string, config: Record<string, unknown> = {}) {
  const created = await client.post('/v1/evaluators', { name: `${type} check`, type, config });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.guid as string;
}

async function finished(client: Client, guid: string) {
  return eventually(async () => {
    const answer = await client.get(`/v1/evaluations/${guid}`);
    return ['SUCCESS', 'FAILED', 'CANCELLED'].includes(answer.body.status) ? answer.body : undefined;
  }, 30_000);
}

// mock/echo answers with the prompt it was sent: an Action whose prompt is `{{answer}}` answers
// each item's `answer` variable, so each item's expected output decides its score.
const items = [
  { input: { answer: 'Paris' }, expected_output: 'Paris' },
  { input: { answer: 'Lyon' }, expected_output: 'Paris' },
  { input: { answer: 'Paris' }, expected_output: 'Paris' },
  { input: { answer: 'Nice' }, expected_output: 'Nice' },
];

describe('evaluation runs', () => {
  it('runs every item as an evaluation generation, scores it and summarises with 95% intervals', async () => {
    const { client } = context;
    const action = await createAction(client, { prompt: '{{answer}}' });
    const datasetGuid = await dataset(client, items);
    const exact = await evaluator(client, 'exact_match');
    const mentionsParis = await evaluator(client, 'contains', { value: 'Paris' });
    const started = await client.post('/v1/evaluations', {
      action: action.guid,
      dataset: datasetGuid,
      evaluators: [exact, mentionsParis],
      concurrency: 2,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body).toMatchObject({
      status: 'PENDING',
      action: action.guid,
      version: 1,
      dataset: datasetGuid,
      dataset_version: 2,
      evaluators: [exact, mentionsParis],
      progress: { total: 4, done: 0, failed: 0 },
    });

    const done = await finished(client, started.body.guid);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: { total: 4, done: 4, failed: 0 } });
    expect(done.summary[exact]).toMatchObject({ name: 'exact_match check', mean: 0.75, n: 4 });
    expect(done.summary[mentionsParis]).toMatchObject({ mean: 0.5, n: 4 });
    // Wilson's interval for 3 of 4: about [0.30, 0.95], around the mean and inside [0, 1].
    expect(done.summary[exact].ci_low).toBeCloseTo(0.3006, 3);
    expect(done.summary[exact].ci_high).toBeCloseTo(0.9544, 3);
    expect(done.latency_ms.p50).toEqual(expect.any(Number));
    expect(done.cost).toEqual(expect.any(Number));
    expect(done.finished_at).not.toBeNull();

    const results = await client.get(`/v1/evaluations/${started.body.guid}/results`);
    expect(results.body.total_count).toBe(4);
    expect(results.body.data.map((result: any) => result.output)).toEqual(['Paris', 'Lyon', 'Paris', 'Nice']);
    expect(results.body.data[1]).toMatchObject({
      input: { answer: 'Lyon' },
      expected_output: 'Paris',
      status: 'done',
      scores: { [exact]: 0, [mentionsParis]: 0 },
      error: null,
    });
    // Each item's generation is stored once, with the Action's generations, as an evaluation.
    const generation = await client.get(`/v1/data/${results.body.data[1].data_guid}`);
    expect(generation.body).toMatchObject({ output: 'Lyon', source: 'evaluation' });
    // Filters: one evaluator's scores below a bound, and failed items.
    const below = await client.get(
      `/v1/evaluations/${started.body.guid}/results?evaluator=${exact}&score_below=0.5`,
    );
    expect(below.body.data.map((result: any) => result.output)).toEqual(['Lyon']);
    expect(
      (await client.get(`/v1/evaluations/${started.body.guid}/results?status=failed`)).body.total_count,
    ).toBe(0);
    const listed = await client.get(`/v1/evaluations?action=${action.guid}`);
    expect(listed.body.data.map((each: any) => each.guid)).toEqual([started.body.guid]);
  });

  it('counts an item whose run fails as done and failed, with null scores, and still succeeds', async () => {
    const { client } = context;
    const action = await createAction(client, { model: 'mock/error', prompt: '{{answer}}' });
    const exact = await evaluator(client, 'exact_match');
    const started = await client.post('/v1/evaluations', {
      action: action.guid,
      dataset: await dataset(client, items.slice(0, 2)),
      evaluators: [exact],
    });
    const done = await finished(client, started.body.guid);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: { total: 2, done: 2, failed: 2 } });
    expect(done.summary[exact]).toEqual({
      name: 'exact_match check',
      mean: null,
      ci_low: null,
      ci_high: null,
      n: 0,
    });
    const results = await client.get(`/v1/evaluations/${started.body.guid}/results`);
    expect(results.body.data[0]).toMatchObject({ status: 'failed', scores: { [exact]: null }, output: null });
    expect(results.body.data[0].error).toMatch(/mock\/error always fails/);
  });

  it('compares two versions item by item with a paired interval, regressions first', async () => {
    const { client } = context;
    const action = await createAction(client, { prompt: '{{answer}}' });
    // Version 2 answers "Paris" whatever the item: it fixes item 2 and breaks item 4.
    expect((await client.put(`/v1/actions/${action.guid}`, { prompt: 'Paris' })).status).toBe(200);
    const datasetGuid = await dataset(client, items);
    const exact = await evaluator(client, 'exact_match');
    const matrix = await client.post('/v1/evaluations/matrix', {
      action: action.guid,
      versions: [1, 2],
      dataset: datasetGuid,
      evaluators: [exact],
    });
    expect(matrix.status, JSON.stringify(matrix.body)).toBe(202);
    const [base, candidate] = matrix.body.data.map((each: any) => each.guid);
    expect(matrix.body.data.map((each: any) => each.version)).toEqual([1, 2]);
    await finished(client, base);
    await finished(client, candidate);

    const compared = await client.get(`/v1/evaluations/compare?base=${base}&candidate=${candidate}`);
    expect(compared.status, JSON.stringify(compared.body)).toBe(200);
    expect(compared.body.evaluators[exact]).toMatchObject({
      base_mean: 0.75,
      candidate_mean: 0.75,
      delta: 0,
      improved: 1,
      regressed: 1,
      unchanged: 2,
    });
    expect(compared.body.evaluators[exact].ci_low).toBeLessThan(0);
    expect(compared.body.evaluators[exact].ci_high).toBeGreaterThan(0);
    expect(compared.body.regressed_items).toBe(1);
    expect(compared.body.items[0]).toMatchObject({
      input: { answer: 'Nice' },
      base_output: 'Nice',
      candidate_output: 'Paris',
      scores: { [exact]: { base: 1, candidate: 0 } },
    });
    expect(compared.body.items.at(-1).scores[exact]).toEqual({ base: 0, candidate: 1 });

    // Another dataset version is another set of items: no comparison.
    await client.post(`/v1/datasets/${datasetGuid}/items`, { items: [{ input: { answer: 'Lille' } }] });
    const later = await client.post('/v1/evaluations', {
      action: action.guid,
      dataset: datasetGuid,
      evaluators: [exact],
    });
    const refused = await client.get(`/v1/evaluations/compare?base=${base}&candidate=${later.body.guid}`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^candidate: ran on another dataset version/);
    await finished(client, later.body.guid);
  });

  /** A run of 20 items on mock/slow (a token every 50 ms: each item takes a while), one at a time. */
  async function slowRun(client: Client) {
    const action = await createAction(client, { model: 'mock/slow', prompt: 'one two three {{answer}}' });
    const many = Array.from({ length: 20 }, (_, index) => ({ input: { answer: `item ${index}` } }));
    const started = await client.post('/v1/evaluations', {
      action: action.guid,
      dataset: await dataset(client, many),
      evaluators: [await evaluator(client, 'contains', { value: 'item' })],
      concurrency: 1,
    });
    await eventually(async () => {
      const answer = await client.get(`/v1/evaluations/${started.body.guid}`);
      return answer.body.progress.done >= 1 ? true : undefined;
    });
    return { action: action.guid as string, evaluation: started.body.guid as string };
  }

  it('cancels a running evaluation: no item starts after it', async () => {
    const { client } = context;
    const { action, evaluation } = await slowRun(client);
    // Items that started are the generations stored (outcomes are written a batch at a time).
    const started = async () =>
      (await client.get(`/v1/data?action=${action}&source=evaluation`)).body.total_count as number;
    const cancelled = await client.post(`/v1/evaluations/${evaluation}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('CANCELLED');
    const startedAtCancel = await started();
    const again = await client.post(`/v1/evaluations/${evaluation}/cancel`);
    expect(again.status).toBe(409);
    // The item in flight when it was cancelled may still finish; none after it starts. The chain's
    // job (one, at concurrency 1; a long one hands the rest to a job keyed by the next position)
    // ends once it sees the cancel: then nothing of the run can start any more.
    const jobs = context.test.platform.jobs;
    await eventually(async () => {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, position) => jobs.statusOfKey(itemJobKey(evaluation, position))),
      );
      return statuses.some((status) => status === 'queued' || status === 'running') ? undefined : true;
    });
    expect(await started()).toBeLessThanOrEqual(startedAtCancel + 1);
    const later = await client.get(`/v1/evaluations/${evaluation}`);
    expect(later.body.progress.done).toBeLessThanOrEqual(startedAtCancel + 1);
    expect(later.body.progress.done).toBeLessThan(20);
  });

  it('fails a run that cannot go on: its Action was deleted', async () => {
    const { client } = context;
    const { action, evaluation } = await slowRun(client);
    expect((await client.delete(`/v1/actions/${action}`)).status).toBe(200);
    const ended = await finished(client, evaluation);
    expect(ended).toMatchObject({ status: 'FAILED', error: 'The Action was deleted' });
    expect(ended.progress.done).toBeLessThan(20);
  });

  it('refuses bad input with a 400 or 404 and stores nothing', async () => {
    const { client } = context;
    const action = await createAction(client, { prompt: '{{answer}}' });
    const datasetGuid = await dataset(client, items);
    const exact = await evaluator(client, 'exact_match');
    const other = await newWorkspace(context.test);
    const othersDataset = await dataset(other, items);
    const othersEvaluator = await evaluator(other, 'exact_match');
    const emptyDataset = await dataset(client, []);
    const base = { action: action.guid, dataset: datasetGuid, evaluators: [exact] };
    const refusals: [Record<string, unknown>, number, RegExp][] = [
      [{ ...base, dataset: othersDataset }, 404, /Dataset not found/],
      [{ ...base, evaluators: [othersEvaluator] }, 404, /Evaluator not found/],
      [{ ...base, evaluators: [] }, 400, /body\.evaluators: /],
      [{ ...base, concurrency: 0 }, 400, /body\.concurrency: /],
      [{ ...base, concurrency: 33 }, 400, /body\.concurrency: /],
      [{ ...base, version: 1, environment: 'production' }, 400, /body\.environment: /],
      [{ ...base, version: 9 }, 400, /version/],
      [{ ...base, dataset_version: 7 }, 400, /^dataset_version: the dataset's newest version is 2/],
      [{ ...base, dataset: emptyDataset }, 400, /^dataset: version 1 has no items/],
      [{ ...base, surprise: true }, 400, /surprise/],
    ];
    for (const [body, status, message] of refusals) {
      const refused = await client.post('/v1/evaluations', body);
      expect(refused.status, JSON.stringify(body)).toBe(status);
      expect(refused.body.message, JSON.stringify(body)).toMatch(message);
    }
    expect((await client.get(`/v1/evaluations?action=${action.guid}`)).body.total_count).toBe(0);
    // Another workspace's evaluation is as missing as an unknown one.
    const othersAction = await createAction(other, { prompt: '{{answer}}' });
    const theirs = await other.post('/v1/evaluations', {
      action: othersAction.guid,
      dataset: othersDataset,
      evaluators: [othersEvaluator],
    });
    expect((await client.get(`/v1/evaluations/${theirs.body.guid}`)).status).toBe(404);
    expect((await client.get(`/v1/evaluations/${theirs.body.guid}/results`)).status).toBe(404);
    expect((await client.post(`/v1/evaluations/${theirs.body.guid}/cancel`)).status).toBe(404);
    await finished(other, theirs.body.guid);
  });

  it('lets a developer start an evaluation and a viewer only read it', async () => {
    const { client, test } = context;
    const action = await createAction(client, { prompt: '{{answer}}' });
    const body = {
      action: action.guid,
      dataset: await dataset(client, items.slice(0, 1)),
      evaluators: [await evaluator(client, 'exact_match')],
    };
    const viewer = await signedInPerson(test, client.workspaceGuid, 'viewer');
    expect((await viewer.client.post('/v1/evaluations', body)).status).toBe(403);
    const developer = await signedInPerson(test, client.workspaceGuid, 'developer');
    const started = await developer.client.post('/v1/evaluations', body);
    expect(started.status).toBe(202);
    expect(started.body.created_by_id).toBe(developer.person.id);
    expect((await viewer.client.get(`/v1/evaluations/${started.body.guid}`)).status).toBe(200);
    await finished(client, started.body.guid);
  });
});
