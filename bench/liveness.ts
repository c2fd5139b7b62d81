import { randomBytes } from 'node:crypto';
import { prose } from '../test/helpers/documents.js';
import { type BenchLectern, startBenchLectern } from './lectern-server.js';
import { percentile } from './measure.js';
import { startProbe } from './probe.js';

/**
 * How long `/healthz` takes to answer while the service works on large inputs, measured from outside
 * (`lectern serve` in its own process): a probe sends `GET /healthz` every 20 ms on a fixed schedule,
 * never waiting for the previous answer, so a stalled event loop shows in every probe it holds up.
 * Scenarios: one 4.2 MB Document, three at once, four 16 MiB file uploads at once (five times). Prints p50, p99 and
 * the worst answer of each against the same probe on the idle service, measured in the same run.
 */
/** What the service should manage through each load: p99 and worst answer of `/healthz`. */
const goal = { p99Ms: 100, worstMs: 250 };

async function measureDuring(lectern: BenchLectern, name: string, work: () => Promise<unknown>) {
  const probe = startProbe(lectern.baseUrl);
  const started = performance.now();
  let elapsed: number;
  let answered: number[];
  try {
    await work();
  } finally {
    elapsed = performance.now() - started;
    answered = await probe.stop();
  }
  const latencies = answered.sort((a, b) => a - b);
  const p99 = percentile(latencies, 0.99);
  const worst = latencies.at(-1)!;
  const verdict = p99 < goal.p99Ms && worst < goal.worstMs ? 'goal met' : 'goal missed';
  console.log(
    `  ${name.padEnd(28)} ${(elapsed / 1000).toFixed(1).padStart(5)} s  /healthz ${String(latencies.length).padStart(4)} answers: p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, worst ${worst.toFixed(1)} ms  (${verdict})`,
  );
}

/** Each scenario on a service of its own, so none runs beside the previous one's embedding work. */
async function scenario(
  name: string,
  /** Prepares the inputs (before the probe starts) and answers the work to measure. */
  prepare: (lectern: BenchLectern, add: (text: string) => Promise<unknown>) => () => Promise<unknown>,
) {
  const lectern = await startBenchLectern();
  try {
    const context = await lectern.post<{ guid: string }>('/v1/contexts', {
      name: 'liveness',
      description: '',
    });
    const add = (text: string) => lectern.post(`/v1/contexts/${context.guid}/documents`, { content: text });
    await measureDuring(lectern, name, prepare(lectern, add));
  } finally {
    await lectern.stop();
  }
}

async function main() {
  const only = process.env.BENCH_LIVENESS_SCENARIO;
  console.log(
    `liveness: GET /healthz every 20 ms from another process while the service works (goal: p99 < ${goal.p99Ms} ms, worst < ${goal.worstMs} ms)`,
  );
  const scenarios: [string, Parameters<typeof scenario>[1]][] = [
    ['idle (baseline), 3 s', () => () => new Promise((resolve) => setTimeout(resolve, 3_000))],
    [
      'one 4.2 MB Document',
      (_lectern, add) => {
        const text = prose(4_200_000);
        return () => add(text);
      },
    ],
    [
      'three 4.2 MB Documents',
      (_lectern, add) => {
        const texts = [0, 1, 2].map((part) => `Part ${part}. ${prose(4_200_000)}`);
        return () => Promise.all(texts.map(add));
      },
    ],
    [
      // Five rounds: one round gives the probe ~60 answers, too few for a 99th percentile.
      'four 16 MiB uploads, 5 times',
      (lectern) => {
        const bodies = [0, 1, 2, 3].map(() => ({ data: randomBytes(16 * 1024 * 1024).toString('base64') }));
        return async () => {
          for (let round = 0; round < 5; round += 1) {
            await Promise.all(bodies.map((body) => lectern.post('/v1/files/upload', body)));
          }
        };
      },
    ],
  ];
  for (const [name, work] of scenarios) if (!only || name.startsWith(only)) await scenario(name, work);
}

await main();
