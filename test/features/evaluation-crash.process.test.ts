import { expect, it } from 'vitest';
import { attemptsStarted, keyedCaller, serve } from '../helpers/lectern-process.js';
import { eventually, useProcessEnvironment } from '../helpers/test-app.js';

const apiKey = 'lec_evaluation_crash_key_0123456789abcdefghij';
const processEnvironment = useProcessEnvironment({ LECTERN_INIT_API_KEY: apiKey });
const call = keyedCaller(apiKey);

it('resumes an evaluation after the process is killed mid-run, without running a finished item again', async () => {
  const first = await serve({ ...processEnvironment.values, LOG_LEVEL: 'debug' });
  const app = await call(first.baseUrl, 'POST', '/v1/apps', { name: 'crash' });
  // mock/slow sends a word every 50 ms: each item runs for about half a second.
  const action = await call(first.baseUrl, 'POST', '/v1/actions/create', {
    app: app.body.guid,
    name: 'slow',
    model: 'mock/slow',
    prompt: 'one two three four five six seven eight nine {{text}}',
  });
  const dataset = await call(first.baseUrl, 'POST', '/v1/datasets', { name: 'Twelve' });
  const items = Array.from({ length: 12 }, (_, index) => ({ input: { text: `item${index}` } }));
  await call(first.baseUrl, 'POST', `/v1/datasets/${dataset.body.guid}/items`, { items });
  const evaluator = await call(first.baseUrl, 'POST', '/v1/evaluators', {
    name: 'Names its item',
    type: 'contains',
    config: { value: 'item' },
  });
  const started = await call(first.baseUrl, 'POST', '/v1/evaluations', {
    action: action.body.guid,
    dataset: dataset.body.guid,
    evaluators: [evaluator.body.guid],
    concurrency: 2,
  });
  const path = `/v1/evaluations/${started.body.guid}`;
  // Killed once a few items have finished and others are in flight.
  const before = await eventually(async () => {
    const answer = (await call(first.baseUrl, 'GET', path)).body;
    return answer.progress.done >= 3 ? answer : undefined;
  }, 30_000);
  expect(before.status).toBe('RUNNING');
  expect(attemptsStarted(first, 'evaluate-item')).toBeGreaterThanOrEqual(2);
  await first.kill();

  const second = await serve(processEnvironment.values);
  try {
    const done = await eventually(async () => {
      const answer = await call(second.baseUrl, 'GET', path);
      return answer.body.status === 'RUNNING' ? undefined : answer.body;
    }, 60_000);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: { total: 12, done: 12, failed: 0 } });
    const stored = await call(
      second.baseUrl,
      'GET',
      `/v1/data?action=${action.body.guid}&source=evaluation&limit=100`,
    );
    expect(stored.body.total_count).toBe(12);
    const results = await call(second.baseUrl, 'GET', `${path}/results`);
    expect(new Set(results.body.data.map((result: any) => result.data_guid))).toEqual(
      new Set(stored.body.data.map((generation: any) => generation.guid)),
    );
  } finally {
    await second.stop();
  }
}, 120_000);
