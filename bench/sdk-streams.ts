import Klu from '@kluai/core';
import { startCpuBurners } from '../test/helpers/busy.js';
import { benchApiKey, startBenchLectern } from './lectern-server.js';
import { format, percentile } from './measure.js';

/**
 * The official SDK's streaming (`klu.actions.stream`) against a Lectern process, as Klu's example app
 * uses it: `runs` streams of a 40-word `mock/echo` answer, one after another, first on a quiet machine
 * (the baseline), then with two CPU burners on the 2-core machine. It counts the texts that arrive
 * whole and times each stream from the run request to the SDK's end of iteration.
 *
 * The SDK talks to http://localhost:4000/v1 when KLU_ENV=dev, so Lectern listens there.
 */
const runs = Number(process.env.BENCH_SDK_STREAMS ?? 300);
process.env.KLU_ENV = 'dev';

async function streamMany(klu: InstanceType<typeof Klu>, actionGuid: string, label: string) {
  let whole = 0;
  const durations: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const text = Array.from({ length: 40 }, (_, index) => `${label}${run}w${index}`).join(' ');
    const begin = performance.now();
    const streamed = await klu.actions.stream(actionGuid, { text });
    let received = '';
    for await (const token of streamed.streamingData) received += token ?? '';
    durations.push(performance.now() - begin);
    if (received === text) whole += 1;
  }
  return { whole, p50: percentile(durations, 0.5), p95: percentile(durations, 0.95) };
}

async function main(): Promise<void> {
  const lectern = await startBenchLectern(undefined, {
    PORT: '4000',
    HOST: 'localhost',
    LECTERN_BASE_URL: 'http://localhost:4000',
  });
  const backend = process.env.DATABASE_URL
    ? `PostgreSQL${process.env.REDIS_URL ? ' + Redis' : ''}`
    : 'PGlite (embedded)';
  console.log(`sdk-streams: ${runs} klu.actions.stream calls of a 40-word mock/echo answer, ${backend}`);
  try {
    const klu = new Klu(benchApiKey);
    const app = await lectern.post('/v1/apps', { name: 'sdk streams' });
    const action = await lectern.post('/v1/actions/create', {
      app: app.guid,
      name: 'echo',
      model: 'mock/echo',
      prompt: '{{text}}',
    });
    const quiet = await streamMany(klu, action.guid, 'q');
    const burners = startCpuBurners(2);
    const loaded = await streamMany(klu, action.guid, 'l').finally(() => burners.stop());
    const line = (name: string, result: typeof quiet) =>
      `${name.padEnd(28)} ${result.whole}/${runs} whole   p50 ${format(result.p50)}   p95 ${format(result.p95)}`;
    console.log(line('quiet machine (baseline)', quiet));
    console.log(line('two CPU burners running', loaded));
    console.log(`loaded / quiet p50: ${(loaded.p50 / quiet.p50).toFixed(2)}×`);
  } finally {
    await lectern.stop();
  }
}

await main();
