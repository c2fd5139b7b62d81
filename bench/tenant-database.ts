import { startCpuBurners } from '../test/helpers/busy.js';
import { prose } from '../test/helpers/documents.js';
import { startBenchLectern } from './lectern-server.js';
import { percentile } from './measure.js';

/**
 * One tenant's documents against another's database work, on the embedded database (`lectern serve`
 * in its own process). Workspace A adds large Documents while workspace B runs an Action and lists
 * its Apps, one request after another; B's latencies are printed against the same requests on the
 * idle service, measured in the same run. Goals (issue: trust boundaries, item 4):
 * - while A adds four 4 MB Documents at once: B's sync run p99 < 500 ms, `GET /v1/apps` p99 < 100 ms;
 * - while A posts fifty 400 kB Documents, four at a time: B's async run (queued to SUCCESS) p99 < 2 s.
 *
 * `--root DIR` serves another checkout's build instead (a baseline). `--burners N` runs both loads again beside N CPU burners (processes that spin, as a build beside
 * the service would), `--rounds R` repeats each load R times; every figure is printed against the idle
 * service and, for the burners, against the same load on the quiet machine. Goals with four burners:
 * B's reads p99 < 250 ms, sync runs p99 < 500 ms, async runs p99 < 2 s, in every round.
 */
const adminToken = 'bench-admin-token-0123456789abcdef';

type Client = {
  post<Answer = { guid: string }>(route: string, body: unknown): Promise<Answer>;
  get<Answer>(route: string): Promise<Answer>;
};

function clientOf(baseUrl: string, key: string): Client {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  // biome-ignore lint/suspicious/noExplicitAny: the caller names the answer's type.
  const answer = async (route: string, response: Response): Promise<any> => {
    if (!response.ok) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };
  return {
    post: async (route, body) =>
      answer(
        route,
        await fetch(`${baseUrl}${route}`, { method: 'POST', headers, body: JSON.stringify(body) }),
      ),
    get: async (route) => answer(route, await fetch(`${baseUrl}${route}`, { headers })),
  };
}

/** Repeats `call` one after another until `until` settles; every call's latency in ms. */
async function loop(call: () => Promise<unknown>, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    await call();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

const describe = (latencies: number[]) =>
  `n ${String(latencies.length).padStart(4)}  p50 ${percentile(latencies, 0.5).toFixed(0).padStart(5)} ms  p99 ${percentile(latencies, 0.99).toFixed(0).padStart(6)} ms  worst ${Math.max(
    ...latencies,
  )
    .toFixed(0)
    .padStart(6)} ms`;

function verdict(latencies: number[], goalMs: number, baseline: number[], quiet?: number[]): string {
  const p99 = percentile(latencies, 0.99);
  const ratio = p99 / percentile(baseline, 0.99);
  const againstQuiet = quiet ? `, ${(p99 / percentile(quiet, 0.99)).toFixed(1)}× the quiet load's` : '';
  return `${p99 < goalMs ? 'goal met' : 'goal missed'} (p99 < ${goalMs} ms; ${ratio.toFixed(1)}× the idle p99${againstQuiet})`;
}

function optionOf(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

async function main() {
  // `--root DIR`: another checkout's build (a baseline), measured the same way.
  const rootIndex = process.argv.indexOf('--root');
  const root = rootIndex === -1 ? undefined : process.argv[rootIndex + 1];
  const lectern = await startBenchLectern(undefined, { LECTERN_ADMIN_TOKEN: adminToken }, root);
  try {
    const admin = clientOf(lectern.baseUrl, adminToken);
    const created = await admin.post<{ api_key: string }>('/admin/v1/workspaces', { name: 'tenant B' });
    const heavy = clientOf(
      lectern.baseUrl,
      (await lectern.post<{ api_key: string }>('/v1/api_keys', { name: 'A' })).api_key,
    );
    const light = clientOf(lectern.baseUrl, created.api_key);
    const app = (await light.post('/v1/apps', { name: 'B' })).guid;
    const action = (
      await light.post('/v1/actions/create', {
        name: 'Echo',
        app,
        model: 'mock/echo',
        prompt: 'Echo {{text}}',
      })
    ).guid;
    const syncRun = () => light.post(`/v1/actions/${action}/prompt`, { input: { text: 'am I frozen?' } });
    const listApps = () => light.get('/v1/apps');
    const asyncRun = async () => {
      const queued = await light.post<{ result_url: string }>(`/v1/actions/${action}/prompt`, {
        input: { text: 'am I frozen?' },
        async_mode: true,
      });
      const path = new URL(queued.result_url).pathname;
      for (;;) {
        const result = await light.get<{ status: string }>(path);
        if (result.status === 'SUCCESS') return;
        if (result.status === 'FAILED') throw new Error('the async run failed');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const library = (await heavy.post('/v1/contexts', { name: 'bulk', description: 'large texts' })).guid;
    const add = (text: string) => heavy.post(`/v1/contexts/${library}/documents`, { content: text });

    console.log('tenant database: B’s requests while A adds Documents (embedded database)');
    const idle = new Promise((resolve) => setTimeout(resolve, 5_000));
    const [idleSync, idleApps] = await Promise.all([loop(syncRun, idle), loop(listApps, idle)]);
    const idleAsync = await loop(asyncRun, new Promise((resolve) => setTimeout(resolve, 5_000)));
    console.log(`  idle: B sync run          ${describe(idleSync)}`);
    console.log(`  idle: B GET /v1/apps      ${describe(idleApps)}`);
    console.log(`  idle: B async run         ${describe(idleAsync)}`);

    const large = [0, 1, 2, 3].map((part) => `Part ${part}. ${prose(4_000_000)}`);
    const medium = Array.from({ length: 50 }, (_, index) => `Note ${index}. ${prose(400_000)}`);
    type Load = { sync: number[]; apps: number[]; async: number[] };
    const load = async (): Promise<Load> => {
      let started = performance.now();
      const fourLarge = Promise.all(large.map(add));
      const [sync, apps] = await Promise.all([loop(syncRun, fourLarge), loop(listApps, fourLarge)]);
      const largeSeconds = (performance.now() - started) / 1000;
      started = performance.now();
      const fifty = (async () => {
        for (let next = 0; next < medium.length; next += 4)
          await Promise.all(medium.slice(next, next + 4).map(add));
      })();
      const asynchronous = await loop(asyncRun, fifty);
      const mediumSeconds = (performance.now() - started) / 1000;
      console.log(
        `    (A's 4 × 4 MB took ${largeSeconds.toFixed(1)} s, its 50 × 400 kB ${mediumSeconds.toFixed(1)} s)`,
      );
      return { sync, apps, async: asynchronous };
    };
    const print = (
      figures: Load,
      goals: Load extends unknown ? Record<keyof Load, number> : never,
      quiet?: Load,
    ) => {
      console.log(
        `    B sync run              ${describe(figures.sync)}  ${verdict(figures.sync, goals.sync, idleSync, quiet?.sync)}`,
      );
      console.log(
        `    B GET /v1/apps          ${describe(figures.apps)}  ${verdict(figures.apps, goals.apps, idleApps, quiet?.apps)}`,
      );
      console.log(
        `    B async run             ${describe(figures.async)}  ${verdict(figures.async, goals.async, idleAsync, quiet?.async)}`,
      );
    };
    const rounds = optionOf('--rounds', 1);
    const burnerCount = optionOf('--burners', 0);
    for (let round = 1; round <= rounds; round++) {
      console.log(
        `  round ${round}: A adds 4 × 4 MB at once, then 50 × 400 kB four at a time, on a quiet machine`,
      );
      const quiet = await load();
      print(quiet, { sync: 500, apps: 100, async: 2_000 });
      if (burnerCount === 0) continue;
      console.log(`  round ${round}: the same beside ${burnerCount} CPU burners`);
      const burners = startCpuBurners(burnerCount);
      const busy = await load().finally(() => burners.stop());
      print(busy, { sync: 500, apps: 250, async: 2_000 }, quiet);
    }
  } finally {
    await lectern.stop();
  }
}

await main();
