import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPlatform } from '../src/platform/platform.js';
import { createPostgresDatabase } from '../test/helpers/postgres-database.js';
import { format, measure, percentile } from './measure.js';

/**
 * The dashboard's aggregate (`GET /v1/statistics`: per-day runs, tokens, cost, feedback; per-Action
 * p50/p95 latency) over a workspace of 10k and then 1M generations spread over 30 days (the first read
 * rolls the finished days up, timed on its own; the figures after it read the rollups), on the
 * embedded database unless DATABASE_URL is set. Baseline measured in the same run: one page of the
 * log view (`GET /v1/data?limit=50`), an indexed read whose cost does not grow with the table.
 * In process (Fastify inject), so the figures are the service's, not a socket's.
 */
const sizes = (process.env.BENCH_STATISTICS_SIZES ?? '10000,1000000').split(',').map(Number);
const requests = Number(process.env.BENCH_STATISTICS_REQUESTS ?? 20);

// With DATABASE_URL, a database of the bench's own: a million rows have no place in a shared one.
const own = process.env.DATABASE_URL
  ? await createPostgresDatabase(process.env.DATABASE_URL, 'lectern_bench')
  : undefined;
const config = loadConfig({
  LECTERN_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'lectern-bench-statistics-')),
  LOG_LEVEL: 'silent',
  ...(own && { DATABASE_URL: own.url }),
});
const platform = await createPlatform(config, pino({ level: 'silent' }));
const app = await buildApp(platform);
const { workspace, apiKey } = await app.services.workspaces.createWorkspace(`bench-${Date.now()}`);
const headers = { authorization: `Bearer ${apiKey}` };
const call = async (url: string) => {
  const response = await app.inject({ method: 'GET', url, headers });
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
};

const created = await app.inject({ method: 'POST', url: '/v1/apps', headers, payload: { name: 'bench' } });
const actionIds: string[] = [];
for (let index = 0; index < 5; index++) {
  const action = await app.inject({
    method: 'POST',
    url: '/v1/actions/create',
    headers,
    payload: {
      app: JSON.parse(created.body).guid,
      name: `action ${index}`,
      model: 'mock/echo',
      prompt: '{{text}}',
    },
  });
  actionIds.push(JSON.parse(action.body).guid);
}

console.log(
  `statistics over a workspace's generations (${platform.database.kind}, ${requests} requests each)`,
);
let stored = 0;
for (const size of sizes) {
  const started = performance.now();
  const database = platform.database.database;
  // Generated in SQL in batches: 1M rows through the API would measure the API, not the aggregate.
  for (let batch = stored; batch < size; batch += 100_000) {
    const count = Math.min(100_000, size - batch);
    await database.execute(sql`
      INSERT INTO generations (id, workspace_id, action_id, input, output, model, model_provider,
        num_input_tokens, num_output_tokens, latency_ms, cost, source, created_at, updated_at)
      SELECT gen_random_uuid(), ${workspace.id}::uuid, (${sql.raw(`ARRAY['${actionIds.join("','")}']::uuid[]`)})[1 + n % 5],
        '{"text":"bench"}'::jsonb, 'bench output', 'echo', 'mock', 20 + n % 50, 5 + n % 20, 50 + n % 900,
        jsonb_build_object('input', 0.0001, 'output', 0.0002, 'generation', 0.0003), 'sync',
        now() - make_interval(secs => (n % 2592000)), now()
      FROM generate_series(${batch}::int, ${batch + count - 1}::int) AS n`);
  }
  stored = size;
  await database.execute(sql`ANALYZE generations`);
  // The rows went in around the API, so no day was marked changed: forget the earlier size's rollups.
  await database.execute(sql`DELETE FROM generation_days_computed WHERE workspace_id = ${workspace.id}`);
  const loadSeconds = (performance.now() - started) / 1000;
  // The first read sums the finished days into generation_days; later reads use them.
  const firstStarted = performance.now();
  await call('/v1/statistics');
  const first = performance.now() - firstStarted;
  const statistics = await measure(() => call('/v1/statistics'), requests, 1);
  const page = await measure(() => call('/v1/data?limit=50'), requests, 1);
  const p50 = percentile(statistics, 0.5);
  const baseline = percentile(page, 0.5);
  console.log(
    `  ${size.toLocaleString('en')} generations (loaded in ${loadSeconds.toFixed(1)} s): first read (rolls up) ${format(first)}; statistics p50 ${format(p50)}, ` +
      `p95 ${format(percentile(statistics, 0.95))}; log page p50 ${format(baseline)}; ratio ${(p50 / baseline).toFixed(1)}×`,
  );
}
await app.close();
await platform.close();
await own?.drop();
