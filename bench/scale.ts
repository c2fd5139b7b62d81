import autocannon from 'autocannon';
import { benchApiKey, startBenchLecternWithUpstream } from './lectern-server.js';

/**
 * Sync-run throughput with one node, then with two nodes on the same PostgreSQL (and Redis when
 * REDIS_URL is set), against a local OpenAI-compatible server. Both nodes take load at once (one
 * autocannon per node, as a load balancer would split it); the ratio is two nodes over one.
 */
const seconds = Number(process.env.BENCH_SCALE_SECONDS ?? 15);
const connectionsPerNode = 16;

async function throughput(
  urls: string[],
  duration: number,
  body: string,
): Promise<{ perSecond: number; errors: number }> {
  const results = await Promise.all(
    urls.map(
      (url) =>
        new Promise<autocannon.Result>((resolve, reject) => {
          autocannon(
            {
              url,
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${benchApiKey}` },
              body,
              connections: connectionsPerNode,
              duration,
            },
            (error, result) => (error ? reject(error) : resolve(result)),
          );
        }),
    ),
  );
  const completed = results.reduce((sum, result) => sum + result.requests.total, 0);
  const errors = results.reduce((sum, result) => sum + result.errors + result.timeouts + result.non2xx, 0);
  return { perSecond: completed / duration, errors };
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.log('bench/scale: set DATABASE_URL (and REDIS_URL): several nodes share one PostgreSQL.');
    return;
  }
  const lectern = await startBenchLecternWithUpstream('bench');
  try {
    const app = await lectern.post('/v1/apps', { name: 'scale' });
    const action = await lectern.post('/v1/actions/create', {
      app: app.guid,
      name: 'scale',
      model: 'bench/bench-model',
      prompt: 'Say {{text}}',
    });
    const body = JSON.stringify({ input: { text: 'hello' } });
    const route = `/v1/actions/${action.guid}/prompt`;
    await throughput([`${lectern.baseUrl}${route}`], 3, body);
    const one = await throughput([`${lectern.baseUrl}${route}`], seconds, body);
    const second = await lectern.addNode();
    await throughput([`${second}${route}`], 3, body);
    const two = await throughput([`${lectern.baseUrl}${route}`, `${second}${route}`], seconds, body);
    console.log(
      `scale: sync runs, ${connectionsPerNode} connections a node, ${seconds} s, PostgreSQL${process.env.REDIS_URL ? ' + Redis' : ''}`,
    );
    console.log(`  one node   ${one.perSecond.toFixed(0)} runs/s (${one.errors} errors)`);
    console.log(`  two nodes  ${two.perSecond.toFixed(0)} runs/s (${two.errors} errors)`);
    console.log(`  ratio two / one: ${(two.perSecond / one.perSecond).toFixed(2)}×`);
  } finally {
    await lectern.stop();
  }
}

await main();
