import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchApiKey, startBenchLectern } from './lectern-server.js';
import { format, measure, measurePair, percentile } from './measure.js';

/**
 * What people cost (issue: authorization < 0.1 ms p50 on a run; an audit record < 1 ms on a
 * management write), measured against the commit before them in one run: both builds serve side by
 * side (embedded PGlite each, or a database each on DATABASE_URL), and each pair of rounds alternates.
 *
 * The baseline is `BENCH_BASELINE_REV` (default: the parent of the commit that added people), checked
 * out in a temporary worktree and built there.
 */
const projectRoot = new URL('..', import.meta.url).pathname;
const git = (...args: string[]) => execFileSync('git', args, { cwd: projectRoot, encoding: 'utf8' }).trim();

function baselineBuild(): string {
  const revision =
    process.env.BENCH_BASELINE_REV ??
    `${git('log', '--diff-filter=A', '--format=%H', '--', 'src/features/identity/people/accounts.ts').split('\n').at(-1)}~1`;
  const directory = mkdtempSync(path.join(tmpdir(), 'lectern-baseline-'));
  git('worktree', 'add', '--detach', directory, revision);
  symlinkSync(path.join(projectRoot, 'node_modules'), path.join(directory, 'node_modules'));
  execFileSync('node', ['scripts/bundle.mjs'], { cwd: directory, stdio: 'ignore' });
  if (existsSync(path.join(directory, 'dist/platform/database/write-template.js')))
    execFileSync('node', ['dist/platform/database/write-template.js'], { cwd: directory, stdio: 'ignore' });
  console.log(`people: baseline ${git('rev-parse', '--short', revision)} built in ${directory}`);
  return directory;
}

async function call(baseUrl: string, method: string, route: string, key: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${route} answered ${response.status}: ${await response.text()}`);
  return response.json() as Promise<{ guid: string; api_key: string }>;
}

async function prepare(baseUrl: string, asPerson: boolean) {
  const app = await call(baseUrl, 'POST', '/v1/apps', benchApiKey, { name: 'bench' });
  const action = await call(baseUrl, 'POST', '/v1/actions/create', benchApiKey, {
    app: app.guid,
    name: 'bench',
    model: 'mock/echo',
    prompt: 'Say {{text}}',
  });
  // The candidate runs as an application does now: a person's runner key (rights, creator, last use).
  let runKey = benchApiKey;
  if (asPerson) {
    const workspaces = await fetch(`${baseUrl}/v1/me`, {
      headers: { authorization: `Bearer ${benchApiKey}` },
    });
    const workspace = ((await workspaces.json()) as { workspace: { guid: string } }).workspace.guid;
    await call(baseUrl, 'POST', '/admin/v1/users', 'bench-admin-token-0123456789', {
      email: 'bench@example.com',
      password: 'a bench password here',
    });
    await call(baseUrl, 'POST', `/admin/v1/workspaces/${workspace}/members`, 'bench-admin-token-0123456789', {
      email: 'bench@example.com',
      role: 'developer',
    });
    const signIn = await fetch(`${baseUrl}/console/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl },
      body: JSON.stringify({ email: 'bench@example.com', password: 'a bench password here' }),
    });
    const cookie = String(signIn.headers.get('set-cookie')).split(';')[0]!;
    const key = await fetch(`${baseUrl}/v1/api_keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: baseUrl },
      body: JSON.stringify({ name: 'bench runner', role: 'runner' }),
    });
    runKey = ((await key.json()) as { api_key: string }).api_key;
  }
  const run = () =>
    call(baseUrl, 'POST', `/v1/actions/${action.guid}/prompt`, runKey, { input: { text: 'hi' } });
  let renames = 0;
  const write = () => {
    renames += 1;
    return call(baseUrl, 'PUT', `/v1/apps/${app.guid}`, benchApiKey, { name: `bench ${renames}` });
  };
  return { run: async () => void (await run()), write: async () => void (await write()) };
}

async function main(): Promise<void> {
  const root = baselineBuild();
  const environment = { LECTERN_ADMIN_TOKEN: 'bench-admin-token-0123456789' };
  const baseline = await startBenchLectern(undefined, environment, root);
  const candidate = await startBenchLectern(undefined, environment);
  try {
    const before = await prepare(baseline.baseUrl, false);
    const after = await prepare(candidate.baseUrl, true);
    for (const each of [before, after]) {
      await measure(each.run, 500, 1);
      await measure(each.write, 200, 1);
    }
    console.log(
      `people: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}, Node ${process.version}`,
    );
    for (const [label, baselineCall, candidateCall, total] of [
      ['sync run (mock)', before.run, after.run, Number(process.env.BENCH_RUNS ?? 2000)],
      ['PUT /v1/apps/{guid}', before.write, after.write, Number(process.env.BENCH_WRITES ?? 1000)],
    ] as const) {
      const pair = await measurePair(baselineCall, candidateCall, { total, concurrency: 1, rounds: 10 });
      const baselineP50 = percentile(pair.baseline, 0.5);
      const candidateP50 = percentile(pair.candidate, 0.5);
      console.log(
        `${label.padEnd(20)} n=${total}  before p50 ${format(baselineP50)}  after p50 ${format(candidateP50)}  ` +
          `added p50 ${format(candidateP50 - baselineP50)} (${(candidateP50 / baselineP50).toFixed(3)}×); ` +
          `median of rounds' added p50 ${format(percentile(pair.roundOverheads, 0.5))}`,
      );
    }
  } finally {
    await Promise.all([baseline.stop(), candidate.stop()]);
    git('worktree', 'remove', '--force', root);
  }
}

await main();
