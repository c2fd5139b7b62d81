import { benchApiKey, startBenchLecternWithUpstream } from './lectern-server.js';
import { format, measure, measurePair, percentile } from './measure.js';

/**
 * Sync runs through Lectern against a local OpenAI-compatible server vs the same calls made directly
 * to that server, sequential and at concurrency 20. Lectern runs as its own process (embedded PGlite
 * unless DATABASE_URL is set), the upstream in a worker thread, the client here.
 */
const sequentialCalls = Number(process.env.BENCH_SEQUENTIAL ?? 1000);
const concurrentCalls = Number(process.env.BENCH_CONCURRENT ?? 2000);
const concurrency = 20;

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (response.status !== 200)
    throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

async function main(): Promise<void> {
  const lectern = await startBenchLecternWithUpstream('bench');
  try {
    const authorization = { authorization: `Bearer ${benchApiKey}` };
    const setUp = (route: string, body: unknown) => lectern.post(route, body);
    const app = await setUp('/v1/apps', { name: 'bench' });
    const action = await setUp('/v1/actions/create', {
      app: app.guid,
      name: 'bench',
      model: 'bench/bench-model',
      prompt: 'Say {{text}}',
    });

    const direct = () =>
      post(`${lectern.upstreamUrl}/chat/completions`, {
        model: 'bench-model',
        messages: [{ role: 'user', content: 'Say hello' }],
      });
    const throughLectern = () =>
      post(
        `${lectern.baseUrl}/v1/actions/${action.guid}/prompt`,
        { input: { text: 'hello' } },
        authorization,
      );

    // Warm both paths (JIT, connection pools, prepared plans).
    await measure(direct, 200, 4);
    await measure(throughLectern, 1000, 1);

    console.log(
      `run-overhead: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}, Node ${process.version}`,
    );
    for (const [label, total, inFlight] of [
      ['sequential', sequentialCalls, 1],
      [`concurrency ${concurrency}`, concurrentCalls, concurrency],
    ] as const) {
      const pair = await measurePair(direct, throughLectern, {
        total,
        concurrency: inFlight,
        rounds: Number(process.env.BENCH_ROUNDS ?? 20),
      });
      const { baseline: directLatencies, candidate: lecternLatencies, roundOverheads } = pair;
      const directP50 = percentile(directLatencies, 0.5);
      const lecternP50 = percentile(lecternLatencies, 0.5);
      const directP99 = percentile(directLatencies, 0.99);
      const lecternP99 = percentile(lecternLatencies, 0.99);
      console.log(
        `${label.padEnd(15)} n=${total}  direct p50 ${format(directP50)} p99 ${format(directP99)}  |  ` +
          `lectern p50 ${format(lecternP50)} p99 ${format(lecternP99)}  |  ` +
          `overhead p50 ${format(lecternP50 - directP50)} (${(lecternP50 / directP50).toFixed(2)}×), ` +
          `p99 ${format(lecternP99 - directP99)}; median of ${roundOverheads.length} rounds' p50 overhead ` +
          format(percentile(roundOverheads, 0.5)),
      );
    }
  } finally {
    await lectern.stop();
  }
}

await main();
