import { randomBytes } from 'node:crypto';
import { prose } from '../test/helpers/documents.js';
import { type BenchLectern, startBenchLectern } from './lectern-server.js';
import { percentile } from './measure.js';

/**
 * How long `/healthz` takes to answer while the service works on large inputs, measured from outside
 * (`lectern serve` in its own process): a probe sends `GET /healthz` every 20 ms on a fixed schedule,
 * never waiting for the previous answer, so a stalled event loop shows in every probe it holds up.
 * Scenarios: one 4.2 MB Document, three at once, four 16 MiB file uploads at once. Prints p50, p99 and
 * the worst answer of each against the same probe on the idle service, measured in the same run.
 */
type Probe = { stop(): Promise<number[]> };

function startProbe(baseUrl: string, everyMs = 20): Probe {
  const latencies: Promise<number>[] = [];
  const timer = setInterval(() => {
    const started = performance.now();
    latencies.push(
      fetch(`${baseUrl}/healthz`)
        .then((response) => response.text())
        .then(() => performance.now() - started),
    );
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      return Promise.all(latencies);
    },
  };
}

async function measureDuring(lectern: BenchLectern, name: string, work: () => Promise<unknown>) {
  const probe = startProbe(lectern.baseUrl);
  const started = performance.now();
  await work();
  const elapsed = performance.now() - started;
  const latencies = (await probe.stop()).sort((a, b) => a - b);
  console.log(
    `  ${name.padEnd(28)} ${(elapsed / 1000).toFixed(1).padStart(5)} s  /healthz ${String(latencies.length).padStart(4)} answers: p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms, worst ${latencies.at(-1)!.toFixed(1)} ms`,
  );
}

/** Each scenario on a service of its own, so none runs beside the previous one's embedding work. */
async function scenario(
  name: string,
  work: (lectern: BenchLectern, add: (text: string) => Promise<unknown>) => Promise<unknown>,
) {
  const lectern = await startBenchLectern();
  try {
    const context = await lectern.post<{ guid: string }>('/v1/contexts', {
      name: 'liveness',
      description: '',
    });
    const add = (text: string) => lectern.post(`/v1/contexts/${context.guid}/documents`, { content: text });
    await measureDuring(lectern, name, () => work(lectern, add));
  } finally {
    await lectern.stop();
  }
}

async function main() {
  const only = process.env.BENCH_LIVENESS_SCENARIO;
  console.log('liveness: GET /healthz every 20 ms from another process while the service works');
  const scenarios: [string, Parameters<typeof scenario>[1]][] = [
    ['idle (baseline), 3 s', () => new Promise((resolve) => setTimeout(resolve, 3_000))],
    ['one 4.2 MB Document', (_lectern, add) => add(prose(4_200_000))],
    [
      'three 4.2 MB Documents',
      (_lectern, add) => Promise.all([0, 1, 2].map((part) => add(`Part ${part}. ${prose(4_200_000)}`))),
    ],
    [
      'four 16 MiB uploads',
      (lectern) =>
        Promise.all(
          [0, 1, 2, 3].map(() =>
            lectern.post('/v1/files/upload', { data: randomBytes(16 * 1024 * 1024).toString('base64') }),
          ),
        ),
    ],
  ];
  for (const [name, work] of scenarios) if (!only || name.startsWith(only)) await scenario(name, work);
}

await main();
