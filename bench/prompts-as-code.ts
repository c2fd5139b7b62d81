import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '../test/helpers/lectern-process.js';
import { benchApiKey, benchModelCacheDirectory, startBenchLectern } from './lectern-server.js';
import { format, measurePair, percentile } from './measure.js';

/**
 * Prompts as code, each figure against a baseline measured in the same run (docs/performance.md):
 * - includes: a run of a template that includes 5 snippets vs the same template written out;
 * - MCP: a `tools/call` of a mock/echo Action vs the same run through `POST /v1/actions/…/prompt`;
 * - files: `prompts pull` of 500 Actions vs one list request; a `push` that changes nothing vs the
 *   CLI's own start (`lectern --help`);
 * - webhooks: 1,000 deploys and their deliveries to a local receiver, with a `kill -9` of the
 *   service after the 500th, vs the same deploys with no webhook.
 * `BENCH_PARTS=includes,mcp,files,webhooks` picks parts.
 */
const parts = new Set((process.env.BENCH_PARTS ?? 'includes,mcp,files,webhooks').split(','));
const runs = Number(process.env.BENCH_RUNS ?? 2000);
const authorization = `Bearer ${benchApiKey}`;

async function post(url: string, body: unknown): Promise<Response> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization,
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return response;
}

function overheadLine(label: string, pair: Awaited<ReturnType<typeof measurePair>>): string {
  const base = percentile(pair.baseline, 0.5);
  const candidate = percentile(pair.candidate, 0.5);
  return (
    `${label}: baseline p50 ${format(base)}, candidate p50 ${format(candidate)}, ` +
    `overhead p50 ${format(candidate - base)}; median of ${pair.roundOverheads.length} rounds ` +
    format(percentile(pair.roundOverheads, 0.5))
  );
}

async function includesAndMcp(): Promise<void> {
  const lectern = await startBenchLectern();
  try {
    const app = await lectern.post('/v1/apps', { name: 'bench' });
    const texts = ['Be warm.', 'Be brief.', 'Never guess.', 'Cite the handbook.', 'Sign as the team.'];
    for (const [index, content] of texts.entries())
      await lectern.post('/v1/snippets', { name: `part-${index}`, content });
    const included = await lectern.post('/v1/actions/create', {
      app: app.guid,
      name: 'included',
      model: 'mock/echo',
      prompt: `${texts.map((_, index) => `{% include 'part-${index}' %}`).join(' ')} Answer {{question}}`,
    });
    const inlined = await lectern.post('/v1/actions/create', {
      app: app.guid,
      name: 'inlined',
      model: 'mock/echo',
      prompt: `${texts.join(' ')} Answer {{question}}`,
    });
    const run = (guid: string) => async () => {
      await (
        await post(`${lectern.baseUrl}/v1/actions/${guid}/prompt`, { input: { question: 'why' } })
      ).arrayBuffer();
    };
    const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
    await measurePair(run(inlined.guid), run(included.guid), { total: 400, concurrency: 1, rounds: 4 });
    if (parts.has('includes'))
      console.log(
        overheadLine(
          'includes (5 snippets vs inlined)',
          await measurePair(run(inlined.guid), run(included.guid), { total: runs, concurrency: 1, rounds }),
        ),
      );
    if (!parts.has('mcp')) return;
    const slug = (await lectern.get<{ slug: string }>(`/v1/actions/${inlined.guid}`)).slug;
    let id = 0;
    const toolCall = async () => {
      const answer = await post(`${lectern.baseUrl}/mcp`, {
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { name: slug, arguments: { question: 'why' } },
      });
      const body = (await answer.json()) as { result?: { isError?: boolean } };
      if (!body.result || body.result.isError) throw new Error(`tools/call failed: ${JSON.stringify(body)}`);
    };
    await measurePair(run(inlined.guid), toolCall, { total: 400, concurrency: 1, rounds: 4 });
    console.log(
      overheadLine(
        'MCP tools/call vs POST …/prompt',
        await measurePair(run(inlined.guid), toolCall, { total: runs, concurrency: 1, rounds }),
      ),
    );
  } finally {
    await lectern.stop();
  }
}

function timed(
  command: string[],
  environment: Record<string, string>,
): Promise<{ ms: number; output: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/main.js', ...command], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, ...environment },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve({ ms: performance.now() - started, output }) : reject(new Error(output)),
    ),
  );
}

async function files(): Promise<void> {
  const lectern = await startBenchLectern();
  const directory = mkdtempSync(path.join(tmpdir(), 'lectern-bench-prompts-'));
  try {
    const app = await lectern.post('/v1/apps', { name: 'bench' });
    for (let index = 0; index < 500; index += 1)
      await lectern.post('/v1/actions/create', {
        app: app.guid,
        name: `Prompt ${index}`,
        folder: `team-${index % 10}`,
        model: 'mock/echo',
        model_config: { temperature: 0.2 },
        system_message: 'You answer for the support team, briefly and kindly.',
        prompt: `Prompt ${index}: answer {{question}} for {{customer}}.\n\nRules:\n- be brief\n- be kind\n`,
      });
    const environment = { LECTERN_URL: lectern.baseUrl, LECTERN_API_KEY: benchApiKey };
    const listStarted = performance.now();
    await lectern.get('/v1/actions?limit=1000');
    const listMs = performance.now() - listStarted;
    const start = await timed(['--help'], environment).catch(() => ({ ms: Number.NaN, output: '' }));
    const pull = await timed(['prompts', 'pull', '--dir', directory], environment);
    const audit = (await lectern.get<{ total_count: number }>('/v1/audit_log?limit=1')).total_count;
    const push = await timed(['prompts', 'push', '--dir', directory], environment);
    const auditAfter = (await lectern.get<{ total_count: number }>('/v1/audit_log?limit=1')).total_count;
    const unchanged = push.output.split('\n').filter((line) => line.startsWith('unchanged')).length;
    const stateBytes = readFileSync(path.join(directory, '.lectern/state.json')).length;
    console.log(
      `files: pull of 500 Actions ${format(pull.ms)} (one list request ${format(listMs)}; the CLI's start ${format(start.ms)}); ` +
        `push of nothing changed ${format(push.ms)}, ${unchanged} unchanged, ${auditAfter - audit} changes recorded; state.json ${stateBytes} bytes`,
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
    await lectern.stop();
  }
}

async function webhooks(): Promise<void> {
  const received: { id: string; version: number }[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ id: String(request.headers['webhook-id']), version: JSON.parse(body).data.version });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'lectern-bench-webhooks-'));
  const environment = {
    ...(process.env as Record<string, string>),
    LECTERN_RATE_LIMIT_PER_MINUTE: '0',
    LECTERN_MODEL_CACHE_DIR: benchModelCacheDirectory,
    LECTERN_DATA_DIR: dataDirectory,
    LECTERN_INIT_API_KEY: benchApiKey,
    LECTERN_OUTBOUND_ALLOW: '127.0.0.1',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
  };
  if (process.env.DATABASE_URL) {
    console.log('webhooks: embedded PGlite only (a kill -9 of its one process); skipped');
    receiver.close();
    return;
  }
  let node = await serve(environment);
  const deploys = 1000;
  try {
    const call = (url: string, body: unknown) =>
      post(`${node.baseUrl}${url}`, body).then((answer) => answer.json());
    const app = (await call('/v1/apps', { name: 'bench' })) as { guid: string };
    const action = (await call('/v1/actions/create', {
      app: app.guid,
      name: 'hooked',
      model: 'mock/echo',
      prompt: 'v1',
    })) as { guid: string };
    await fetch(`${node.baseUrl}/v1/actions/${action.guid}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ prompt: 'v2' }),
    });
    const deploy = (index: number) =>
      call(`/v1/actions/${action.guid}/deploy`, { environment: 'production', version: (index % 2) + 1 });
    // The baseline: the same deploys with no webhook.
    const baselineStarted = performance.now();
    for (let index = 0; index < deploys; index += 1) await deploy(index);
    const baselineMs = performance.now() - baselineStarted;
    await call('/v1/webhooks', { url: receiverUrl, events: ['action.deployed'] });
    const started = performance.now();
    let acknowledged = 0;
    for (let index = 0; index < deploys; index += 1) {
      await deploy(index);
      acknowledged += 1;
      if (index === deploys / 2 - 1) {
        await node.kill();
        node = await serve(environment);
      }
    }
    const deployedMs = performance.now() - started;
    const deadline = Date.now() + 120_000;
    while (new Set(received.map((each) => each.id)).size < acknowledged && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const deliveredMs = performance.now() - started;
    const unique = new Set(received.map((each) => each.id)).size;
    const firstOfEach = received.filter(
      (each, index) => received.findIndex((other) => other.id === each.id) === index,
    );
    const inOrder = firstOfEach.every((each, index) => each.version === (index % 2) + 1);
    console.log(
      `webhooks: ${acknowledged} deploys with a kill -9 after the 500th: ${unique} delivered (${received.length - unique} sent twice), ` +
        `${inOrder ? 'in order' : 'OUT OF ORDER'}; the deploys took ${format(deployedMs)} (without a webhook: ${format(baselineMs)}), ` +
        `the last delivery came ${format(deliveredMs - deployedMs)} after the last deploy`,
    );
  } finally {
    await node.stop();
    receiver.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(
    `prompts as code: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}, Node ${process.version}`,
  );
  if (parts.has('includes') || parts.has('mcp')) await includesAndMcp();
  if (parts.has('files')) await files();
  if (parts.has('webhooks')) await webhooks();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
