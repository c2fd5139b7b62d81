import { afterAll, expect, it } from 'vitest';
import { attemptsStarted, keyedCaller, type ServingProcess, serve } from '../helpers/lectern-process.js';
import { eventually, useProcessEnvironment } from '../helpers/test-app.js';

const apiKey = 'lec_evaluation_workers_key_0123456789abcdefgh';
const processEnvironment = useProcessEnvironment({
  LECTERN_INIT_API_KEY: apiKey,
  LECTERN_SECRET: 'evaluation-workers-shared-secret-0123456789',
  LECTERN_BASE_URL: 'http://lectern.test',
});
const call = keyedCaller(apiKey);
const nodes: ServingProcess[] = [];
afterAll(() => Promise.all(nodes.map((node) => node.stop())));

async function start(role: 'api' | 'worker'): Promise<ServingProcess> {
  // Four chains a worker: the run's eight chains are shared by the two workers.
  const node = await serve(
    { ...processEnvironment.values, LOG_LEVEL: 'debug', LECTERN_EVALUATION_JOB_SLOTS: '4' },
    ['--role', role],
  );
  nodes.push(node);
  return node;
}

// Two workers share one evaluation; one is killed with SIGKILL mid-run. Its items are handed on when
// their locks lapse, and the run still finishes with every item run exactly once: one generation
// per item, whatever was delivered twice (PostgreSQL + Redis, CI's second pass).
it('finishes an evaluation shared by two workers after one is killed, every item exactly once', async () => {
  const api = await start('api');
  const first = await start('worker');
  const second = await start('worker');
  const app = await call(api.baseUrl, 'POST', '/v1/apps', { name: 'evaluation workers' });
  // mock/slow sends a word every 50 ms: each item runs for about half a second.
  const action = await call(api.baseUrl, 'POST', '/v1/actions/create', {
    app: app.body.guid,
    name: 'slow',
    model: 'mock/slow',
    prompt: 'one two three four five six seven eight nine {{text}}',
  });
  const dataset = await call(api.baseUrl, 'POST', '/v1/datasets', { name: 'Forty' });
  const items = Array.from({ length: 40 }, (_, index) => ({ input: { text: `item${index}` } }));
  await call(api.baseUrl, 'POST', `/v1/datasets/${dataset.body.guid}/items`, { items });
  const evaluator = await call(api.baseUrl, 'POST', '/v1/evaluators', {
    name: 'Names its item',
    type: 'regex',
    config: { pattern: 'item\\d+$' },
  });
  const started = await call(api.baseUrl, 'POST', '/v1/evaluations', {
    action: action.body.guid,
    dataset: dataset.body.guid,
    evaluators: [evaluator.body.guid],
    concurrency: 8,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const path = `/v1/evaluations/${started.body.guid}`;

  // Both workers run chains of the run; the first is killed while some of its items are in flight.
  await eventually(
    async () =>
      attemptsStarted(first, 'evaluate-item') >= 1 &&
      attemptsStarted(second, 'evaluate-item') >= 1 &&
      (await call(api.baseUrl, 'GET', path)).body.progress.done >= 4
        ? true
        : undefined,
    30_000,
  );
  await first.kill();
  expect((await call(api.baseUrl, 'GET', path)).body.status).toBe('RUNNING');

  const done = await eventually(async () => {
    const answer = await call(api.baseUrl, 'GET', path);
    return answer.body.status === 'RUNNING' ? undefined : answer.body;
  }, 90_000);
  expect(done).toMatchObject({ status: 'SUCCESS', progress: { total: 40, done: 40, failed: 0 } });
  expect(done.summary[evaluator.body.guid]).toMatchObject({ mean: 1, n: 40 });

  const results = await call(api.baseUrl, 'GET', `${path}/results?limit=100`);
  const generations = results.body.data.map((result: any) => result.data_guid);
  expect(new Set(generations).size).toBe(40);
  expect(results.body.data.map((result: any) => result.output.split(' ').at(-1))).toEqual(
    items.map((item) => item.input.text),
  );
  // One stored generation per item: none was made twice, the interrupted ones included.
  const stored = await call(
    api.baseUrl,
    'GET',
    `/v1/data?action=${action.body.guid}&source=evaluation&limit=100`,
  );
  expect(stored.body.total_count).toBe(40);
  expect(new Set(stored.body.data.map((generation: any) => generation.guid))).toEqual(new Set(generations));
}, 150_000);
