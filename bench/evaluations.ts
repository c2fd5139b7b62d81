import { startBenchLectern } from './lectern-server.js';
import { format, measure, measurePair, percentile } from './measure.js';
import { startProbe } from './probe.js';

/**
 * What evaluations cost (docs/performance.md), each figure against a baseline measured in the same
 * run, on `lectern serve` in its own process (embedded PGlite, or DATABASE_URL/REDIS_URL):
 * - throughput: 1,000 items on mock/echo, three deterministic evaluators, concurrency 8 (goal < 20 s),
 *   against the same 1,000 inputs as bare runs, 8 at a time; `/healthz` probed every 20 ms throughout
 *   (goal p99 < 50 ms);
 * - per-item overhead: one item after another (concurrency 1), the time from the first item's end to
 *   the last's over the items between (timestamps are to the millisecond, so a mean over 300 items),
 *   against the mean of the same inputs run one after another (goal < 2 ms);
 * - monitors: run latency p50 on a service with a monitor at sample_rate 1 against one without (two
 *   processes, so neither's background work lands on the other), in alternating rounds (goal
 *   within 5%);
 * - comparison of two 10,000-item runs (goal < 500 ms), against reading 1,000 results of one run.
 */
// As in production: answers are not checked against their schemas (tests and other benches check them).
const production = { LECTERN_CHECK_RESPONSES: 'off' };
const lectern = await startBenchLectern(undefined, production);
type Evaluation = { guid: string; status: string; progress: { done: number; total: number } };

async function action(name: string) {
  const app = await lectern.post('/v1/apps', { name });
  return (
    await lectern.post('/v1/actions/create', {
      app: app.guid,
      name,
      model: 'mock/echo',
      prompt: 'Say {{text}}',
    })
  ).guid;
}

async function dataset(size: number) {
  const created = await lectern.post('/v1/datasets', { name: `${size} items` });
  const items = Array.from({ length: size }, (_, index) => ({
    input: { text: `item ${index}` },
    expected_output: `Say item ${index}`,
  }));
  await lectern.post(`/v1/datasets/${created.guid}/items`, { items });
  return created.guid;
}

const evaluators = [
  await lectern.post('/v1/evaluators', { name: 'Exact', type: 'exact_match' }),
  await lectern.post('/v1/evaluators', {
    name: 'Mentions the item',
    type: 'contains',
    config: { value: 'item' },
  }),
  await lectern.post('/v1/evaluators', { name: 'Says', type: 'regex', config: { pattern: '^Say ' } }),
].map((evaluator) => evaluator.guid);

async function evaluate(actionGuid: string, datasetGuid: string, concurrency: number): Promise<Evaluation> {
  const started = await lectern.post<Evaluation>('/v1/evaluations', {
    action: actionGuid,
    dataset: datasetGuid,
    evaluators,
    concurrency,
  });
  for (;;) {
    const current = await lectern.get<Evaluation>(`/v1/evaluations/${started.guid}`);
    if (current.status !== 'PENDING' && current.status !== 'RUNNING') return current;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const runOf = (actionGuid: string) => {
  let next = 0;
  return async () => {
    await lectern.post(`/v1/actions/${actionGuid}/prompt`, { input: { text: `item ${next++}` } });
  };
};

try {
  // Throughput, with the liveness probe.
  const throughputAction = await action('throughput');
  const thousand = await dataset(1_000);
  const bareStarted = performance.now();
  await measure(runOf(throughputAction), 1_000, 8);
  const bareSeconds = (performance.now() - bareStarted) / 1000;
  const probe = startProbe(lectern.baseUrl);
  const evaluationStarted = performance.now();
  const finished = await evaluate(throughputAction, thousand, 8);
  const evaluationSeconds = (performance.now() - evaluationStarted) / 1000;
  const health = (await probe.stop()).sort((a, b) => a - b);
  if (finished.status !== 'SUCCESS') throw new Error(`the evaluation ended ${finished.status}`);
  console.log(
    `evaluations: 1,000 items, 3 evaluators, concurrency 8: ${evaluationSeconds.toFixed(1)} s (goal < 20 s); ` +
      `the same inputs as bare runs, 8 at a time: ${bareSeconds.toFixed(1)} s (ratio ${(evaluationSeconds / bareSeconds).toFixed(2)})`,
  );
  console.log(
    `evaluations: /healthz during the run: ${health.length} answers, p50 ${format(percentile(health, 0.5))}, ` +
      `p99 ${format(percentile(health, 0.99))} (goal < 50 ms), worst ${format(health.at(-1)!)}`,
  );

  // Per-item overhead: one item at a time.
  const overheadAction = await action('overhead');
  const sequentialItems = await dataset(300);
  const sequential = await evaluate(overheadAction, sequentialItems, 1);
  const results = await lectern.get<{ data: { finished_at: string }[] }>(
    `/v1/evaluations/${sequential.guid}/results?limit=1000`,
  );
  const finishes = results.data.map((result) => Date.parse(result.finished_at));
  const itemMean = (finishes.at(-1)! - finishes[0]!) / (finishes.length - 1);
  const bare = await measure(runOf(overheadAction), 300, 1);
  const bareMean = bare.reduce((sum, each) => sum + each, 0) / bare.length;
  console.log(
    `evaluations: per item, one at a time: ${format(itemMean)} an item; a bare run ${format(bareMean)} ` +
      `(p50 ${format(percentile(bare, 0.5))}); overhead ${format(itemMean - bareMean)} (goal < 2 ms)`,
  );

  // Monitors: the same runs on a service with a monitor scoring every one of them, and on one without.
  const other = await startBenchLectern(undefined, production);
  const monitored = await action('monitored');
  const judged = [
    await lectern.post('/v1/evaluators', { name: 'JSON', type: 'json_valid' }),
    await lectern.post('/v1/evaluators', { name: 'Quick', type: 'latency', config: { max_ms: 1000 } }),
  ].map((evaluator) => evaluator.guid);
  await lectern.post('/v1/monitors', {
    action: monitored,
    evaluators: [evaluators[2], ...judged],
    sample_rate: 1,
  });
  const otherApp = await other.post('/v1/apps', { name: 'unmonitored' });
  const unmonitored = (
    await other.post('/v1/actions/create', {
      app: otherApp.guid,
      name: 'unmonitored',
      model: 'mock/echo',
      prompt: 'Say {{text}}',
    })
  ).guid;
  let next = 0;
  const runUnmonitored = async () => {
    await other.post(`/v1/actions/${unmonitored}/prompt`, { input: { text: `item ${next++}` } });
  };
  const pair = await measurePair(runUnmonitored, runOf(monitored), {
    total: 3_000,
    concurrency: 1,
    rounds: 6,
  });
  await other.stop();
  const without = percentile(pair.baseline, 0.5);
  const withMonitor = percentile(pair.candidate, 0.5);
  console.log(
    `evaluations: run p50 without a monitor ${format(without)}, with one at sample_rate 1 ${format(withMonitor)} ` +
      `(${(((withMonitor - without) / without) * 100).toFixed(1)}%, goal within 5%)`,
  );

  // Comparison of two 10,000-item runs.
  const large = await dataset(10_000);
  const compareAction = await action('compare');
  const [base, candidate] = await Promise.all([
    evaluate(compareAction, large, 32),
    evaluate(compareAction, large, 32),
  ]);
  const comparison = await measure(
    async () => {
      await lectern.get(`/v1/evaluations/compare?base=${base.guid}&candidate=${candidate.guid}`);
    },
    10,
    1,
  );
  const page = await measure(
    async () => {
      await lectern.get(`/v1/evaluations/${base.guid}/results?limit=1000`);
    },
    10,
    1,
  );
  console.log(
    `evaluations: compare two 10,000-item runs: p50 ${format(percentile(comparison, 0.5))} (goal < 500 ms); ` +
      `reading 1,000 results of one: ${format(percentile(page, 0.5))}`,
  );
} finally {
  await lectern.stop();
}
