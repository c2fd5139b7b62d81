import { type BenchLectern, startBenchLectern } from './lectern-server.js';
import { measure, percentile } from './measure.js';

/**
 * Async-run throughput through each job queue, on the same PostgreSQL in the same run: the database
 * queue (rows claimed with SKIP LOCKED, polled) and BullMQ (Redis). Each Lectern queues `runs` async
 * runs of a `mock/echo` Action, 16 requests in flight, then polls the results until every one is
 * SUCCESS. Runs/s counts from the first request to the last SUCCESS: with no model time to hide it,
 * this is what queueing, claiming and recording cost.
 */
const runs = Number(process.env.BENCH_JOBS_RUNS ?? 2000);
const inFlight = 16;

async function asyncRunThroughput(
  lectern: BenchLectern,
  count: number,
): Promise<{ perSecond: number; submitP50: number }> {
  const app = await lectern.post('/v1/apps', { name: 'jobs' });
  const action = await lectern.post('/v1/actions/create', {
    app: app.guid,
    name: 'jobs',
    model: 'mock/echo',
    prompt: 'Echo {{text}}',
  });
  const resultRoutes: string[] = [];
  const begin = performance.now();
  const submitLatencies = await measure(
    async () => {
      const answer = await lectern.post<{ result_url: string }>(`/v1/actions/${action.guid}/prompt`, {
        input: { text: 'hello' },
        async_mode: true,
      });
      resultRoutes.push(new URL(answer.result_url).pathname);
    },
    count,
    inFlight,
  );
  let pending = resultRoutes;
  while (pending.length > 0) {
    const stillPending: string[] = [];
    for (let start = 0; start < pending.length; start += inFlight) {
      const slice = pending.slice(start, start + inFlight);
      const results = await Promise.all(slice.map((route) => lectern.get<{ status: string }>(route)));
      slice.forEach((route, index) => {
        if (results[index]!.status !== 'SUCCESS') stillPending.push(route);
      });
    }
    pending = stillPending;
    if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = (performance.now() - begin) / 1000;
  return { perSecond: count / seconds, submitP50: percentile(submitLatencies, 0.5) };
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
    console.log('bench/jobs: set DATABASE_URL and REDIS_URL: it compares the database queue with BullMQ.');
    return;
  }
  console.log(`jobs: ${runs} async runs of mock/echo, ${inFlight} requests in flight, PostgreSQL`);
  const figures: Record<string, number> = {};
  for (const [label, overrides] of [
    ['database queue', { REDIS_URL: '' }],
    ['BullMQ (Redis)', {}],
  ] as const) {
    const lectern = await startBenchLectern(undefined, overrides);
    try {
      await asyncRunThroughput(lectern, 200); // warm-up: connections, JIT, the first claims
      const { perSecond, submitP50 } = await asyncRunThroughput(lectern, runs);
      figures[label] = perSecond;
      console.log(
        `  ${label.padEnd(16)} ${perSecond.toFixed(0)} runs/s queued to SUCCESS; queueing request p50 ${submitP50.toFixed(2)} ms`,
      );
    } finally {
      await lectern.stop();
    }
  }
  console.log(
    `  ratio BullMQ / database: ${(figures['BullMQ (Redis)']! / figures['database queue']!).toFixed(2)}×`,
  );
}

await main();
