import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { startCpuBurners } from '../test/helpers/busy.js';
import { benchApiKey, startBenchLectern } from './lectern-server.js';
import { format, measure, measurePair, percentile } from './measure.js';

/**
 * Traces over OpenTelemetry, each figure against a baseline measured in the same run
 * (docs/performance.md):
 * - ingest: OTLP/HTTP protobuf exports of 512 spans, 4 in flight, for `BENCH_INGEST_SPANS` spans, vs
 *   the same bodies posted to a bare Node HTTP server; `/healthz` is probed every 20 ms meanwhile;
 * - reads: `GET /v1/traces/{id}` of a 1,000-span trace vs `GET /healthz`;
 * - list: `GET /v1/traces` (newest page, and filtered by name, status and duration) once the
 *   workspace holds `BENCH_LIST_SPANS` spans (default 1,000,000), vs `GET /healthz`;
 * - runs: a sync run with run tracing on vs one with it off (two services, alternating rounds).
 * `BENCH_PARTS=ingest,reads,list,runs` picks parts. `BENCH_BURNERS=N` measures another workspace's
 * sync runs while spans arrive a second time, beside N CPU burners (goal with four: p99 < 500 ms).
 * `BENCH_ROOT=DIR` serves another checkout's build for the ingest, reads and runs parts (a baseline).
 */
const parts = new Set((process.env.BENCH_PARTS ?? 'ingest,reads,list,runs').split(','));
const burnerCount = Number(process.env.BENCH_BURNERS ?? 0);
/** `BENCH_ROOT=DIR`: another checkout's build (a baseline) for the ingest, reads and runs parts. */
const root = process.env.BENCH_ROOT || undefined;
const ingestSpans = Number(process.env.BENCH_INGEST_SPANS ?? 200_000);
const listSpans = Number(process.env.BENCH_LIST_SPANS ?? 1_000_000);
const batchSize = 512;
const authorization = `Bearer ${benchApiKey}`;

const require = createRequire(import.meta.url);
const messages = require('@opentelemetry/otlp-transformer/build/src/generated/root.js').opentelemetry.proto
  .collector.trace.v1;

const Long = require('protobufjs/minimal').util.Long;
/** protobufjs encodes 64-bit integers from its Long, not from a bigint. */
const uint64 = (value: bigint) => Long.fromString(value.toString(), true);
const id = (bytes: number) => randomBytes(bytes);
const stringAttribute = (key: string, value: string) => ({ key, value: { stringValue: value } });
const intAttribute = (key: string, value: number) => ({ key, value: { intValue: value } });

/**
 * One export request of `count` spans in traces of `perTrace`: an HTTP server span at the root, then
 * a database call, a model call (GenAI attributes: a generation each) and plain work below it.
 */
function exportBody(count: number, perTrace: number, startMs: number, names = ['GET /orders']): Uint8Array {
  const spans = [];
  for (let trace = 0; trace < count / perTrace; trace += 1) {
    const traceId = id(16);
    const rootId = id(8);
    const start = BigInt(startMs + trace) * 1_000_000n;
    for (let index = 0; index < perTrace; index += 1) {
      const isRoot = index === 0;
      const isModel = index === 1;
      spans.push({
        traceId,
        spanId: isRoot ? rootId : id(8),
        parentSpanId: isRoot ? undefined : rootId,
        name: isRoot ? names[trace % names.length] : isModel ? 'chat gpt-4o-mini' : `step ${index}`,
        kind: isRoot ? 2 : 1,
        startTimeUnixNano: uint64(start + BigInt(index) * 1_000_000n),
        endTimeUnixNano: uint64(
          start + BigInt(index + 1) * 1_000_000n + (isRoot ? BigInt(perTrace) * 1_000_000n : 0n),
        ),
        attributes: isModel
          ? [
              stringAttribute('gen_ai.operation.name', 'chat'),
              stringAttribute('gen_ai.provider.name', 'openai'),
              stringAttribute('gen_ai.request.model', 'gpt-4o-mini'),
              intAttribute('gen_ai.usage.input_tokens', 400),
              intAttribute('gen_ai.usage.output_tokens', 60),
            ]
          : [
              stringAttribute('http.route', '/orders'),
              intAttribute('http.status_code', 200),
              stringAttribute('db.system', 'postgresql'),
            ],
        status: { code: trace % 50 === 0 && isRoot ? 2 : 0 },
      });
    }
  }
  return messages.ExportTraceServiceRequest.encode({
    resourceSpans: [
      {
        resource: { attributes: [stringAttribute('service.name', 'bench-app')] },
        scopeSpans: [{ scope: { name: 'bench' }, spans }],
      },
    ],
  }).finish();
}

async function postExport(url: string, body: Uint8Array): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-protobuf', authorization },
    body,
  }).catch((error: unknown) => {
    throw new Error(`${url}: ${(error as Error).message}`, { cause: error });
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  const answer = new Uint8Array(await response.arrayBuffer());
  // A refused span would make the figure a lie: every span must be taken.
  const partial =
    answer.length > 0 ? messages.ExportTraceServiceResponse.decode(answer).partialSuccess : undefined;
  if (Number(partial?.rejectedSpans ?? 0) > 0)
    throw new Error(`${url} refused ${partial.rejectedSpans} spans: ${partial.errorMessage.slice(0, 300)}`);
}

async function get(url: string): Promise<void> {
  const response = await fetch(url, { headers: { authorization } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  await response.arrayBuffer();
}

/** A bare Node server that reads each request whole and answers 200: what HTTP alone costs. */
async function bareServer(): Promise<{ url: string; close(): void }> {
  const server = createServer((request, response) => {
    request.on('data', () => undefined);
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    close: () => server.close(),
  };
}

/**
 * Sends `total` spans in batches, `concurrency` in flight; answers the spans per second. Every batch
 * holds new spans (a batch sent again is stored once, so it would measure nothing); they are encoded
 * before the clock starts, in chunks so a million spans do not sit in memory at once.
 */
async function sendSpans(url: string, total: number, perTrace: number, names?: string[], concurrency = 4) {
  const batches = Math.ceil(total / batchSize);
  const chunk = 256;
  let elapsed = 0;
  for (let first = 0; first < batches; first += chunk) {
    const bodies = Array.from({ length: Math.min(chunk, batches - first) }, (_, index) =>
      exportBody(batchSize, perTrace, Date.now() - 60_000 + (first + index) * 64, names),
    );
    let next = 0;
    const started = performance.now();
    await measure(() => postExport(url, bodies[next++]!), bodies.length, concurrency);
    elapsed += performance.now() - started;
  }
  return (batches * batchSize) / (elapsed / 1000);
}

/** `call` every 20 ms while `work` runs: its latencies. */
async function probed<Result>(work: () => Promise<Result>, call: () => Promise<void>) {
  const latencies: number[] = [];
  let running = true;
  let failure: unknown;
  const probe = (async () => {
    while (running) {
      const begin = performance.now();
      await call().catch((error: unknown) => {
        failure ??= error;
        running = false;
      });
      latencies.push(performance.now() - begin);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const result = await work().finally(() => {
    running = false;
  });
  await probe;
  if (failure) throw failure;
  return { result, latencies };
}

/** A sync run of a new mock/echo Action with `key`: the call a probe makes. */
async function syncRunOf(baseUrl: string, key: string): Promise<() => Promise<void>> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const post = async (route: string, body: unknown) => {
    const response = await fetch(`${baseUrl}${route}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${route} answered ${response.status}`);
    return (await response.json()) as { guid: string };
  };
  const app = await post('/v1/apps', { name: 'probe' });
  const action = await post('/v1/actions/create', {
    app: app.guid,
    name: 'probe',
    model: 'mock/echo',
    prompt: 'Say {{text}}',
  });
  return async () => {
    await post(`/v1/actions/${action.guid}/prompt`, { input: { text: 'hi' } });
  };
}

const adminToken = 'bench-admin-token-0123456789';

async function ingestAndReads(): Promise<void> {
  const lectern = await startBenchLectern(undefined, { LECTERN_ADMIN_TOKEN: adminToken }, root);
  const bare = await bareServer();
  try {
    const url = `${lectern.baseUrl}/v1/otel/v1/traces`;
    if (parts.has('ingest')) {
      const baseline = await sendSpans(bare.url, ingestSpans, 8);
      const { result: rate, latencies } = await probed(
        () => sendSpans(url, ingestSpans, 8),
        () => get(`${lectern.baseUrl}/healthz`),
      );
      console.log(
        `ingest: ${Math.round(rate)} spans/s over protobuf (batches of ${batchSize}, 4 in flight, ${ingestSpans} spans, a generation per 8 spans) vs ${Math.round(baseline)} spans/s to a bare Node server (${((rate / baseline) * 100).toFixed(1)}%); /healthz meanwhile p50 ${format(percentile(latencies, 0.5))}, p99 ${format(percentile(latencies, 0.99))} (${latencies.length} probes)`,
      );
      // Another workspace's sync runs (mock/echo) while one floods: the database work they wait for.
      const created = await fetch(`${lectern.baseUrl}/admin/v1/workspaces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
        body: JSON.stringify({ name: 'other' }),
      });
      if (!created.ok) throw new Error(`/admin/v1/workspaces answered ${created.status}`);
      const runKey = ((await created.json()) as { api_key: string }).api_key;
      const runOf = await syncRunOf(lectern.baseUrl, runKey);
      const idle = await measure(runOf, 100, 1);
      const { latencies: busy } = await probed(() => sendSpans(url, ingestSpans / 2, 8), runOf);
      console.log(
        `another workspace's sync run while spans arrive: p50 ${format(percentile(busy, 0.5))}, p99 ${format(percentile(busy, 0.99))}, worst ${format(Math.max(...busy))} (${busy.length} runs) vs idle p50 ${format(percentile(idle, 0.5))}, p99 ${format(percentile(idle, 0.99))}`,
      );
      if (burnerCount > 0) {
        const burners = startCpuBurners(burnerCount);
        const { latencies: loaded } = await probed(() => sendSpans(url, ingestSpans / 2, 8), runOf).finally(
          () => burners.stop(),
        );
        console.log(
          `  the same beside ${burnerCount} CPU burners: p50 ${format(percentile(loaded, 0.5))}, p99 ${format(percentile(loaded, 0.99))}, worst ${format(Math.max(...loaded))} (${loaded.length} runs; ${(percentile(loaded, 0.99) / percentile(busy, 0.99)).toFixed(1)}× the quiet p99; goal p99 < 500 ms: ${percentile(loaded, 0.99) < 500 ? 'met' : 'missed'})`,
        );
      }
    }
    if (parts.has('reads')) {
      const body = exportBody(1000, 1000, Date.now());
      const decoded = messages.ExportTraceServiceRequest.decode(body);
      const traceId = Buffer.from(decoded.resourceSpans[0].scopeSpans[0].spans[0].traceId).toString('hex');
      for (let offset = 0; offset < 1000; offset += 500) {
        const slice = messages.ExportTraceServiceRequest.encode({
          resourceSpans: [
            {
              ...decoded.resourceSpans[0],
              scopeSpans: [
                { spans: decoded.resourceSpans[0].scopeSpans[0].spans.slice(offset, offset + 500) },
              ],
            },
          ],
        }).finish();
        await postExport(url, slice);
      }
      const pair = await measurePair(
        () => get(`${lectern.baseUrl}/healthz`),
        () => get(`${lectern.baseUrl}/v1/traces/${traceId}`),
        { total: 200, concurrency: 1, rounds: 4 },
      );
      console.log(
        `read a 1,000-span trace: p50 ${format(percentile(pair.candidate, 0.5))}, p95 ${format(percentile(pair.candidate, 0.95))} vs /healthz p50 ${format(percentile(pair.baseline, 0.5))}`,
      );
    }
  } catch (error) {
    console.error(
      lectern
        .output()
        .split('\n')
        .filter((line) => !line.includes('"level":30'))
        .slice(-30)
        .join('\n'),
    );
    throw error;
  } finally {
    bare.close();
    await lectern.stop();
  }
}

async function list(): Promise<void> {
  const lectern = await startBenchLectern();
  try {
    const url = `${lectern.baseUrl}/v1/otel/v1/traces`;
    const names = Array.from({ length: 40 }, (_, index) => `GET /route-${index}`);
    const started = performance.now();
    const rate = await sendSpans(url, listSpans, 10, names);
    console.log(
      `loaded ${listSpans} spans (${listSpans / 10} traces of 10) in ${((performance.now() - started) / 1000).toFixed(0)} s: ${Math.round(rate)} spans/s`,
    );
    for (const [label, query] of [
      ['newest page', 'limit=50'],
      ['by root name', 'name=GET%20%2Froute-7&limit=50'],
      ['failed ones', 'status=ERROR&limit=50'],
      ['over 15 ms', 'min_duration_ms=15&limit=50'],
    ]) {
      const pair = await measurePair(
        () => get(`${lectern.baseUrl}/healthz`),
        () => get(`${lectern.baseUrl}/v1/traces?${query}`),
        { total: 200, concurrency: 1, rounds: 4 },
      );
      console.log(
        `list at ${listSpans} spans, ${label}: p50 ${format(percentile(pair.candidate, 0.5))}, p95 ${format(percentile(pair.candidate, 0.95))} vs /healthz p50 ${format(percentile(pair.baseline, 0.5))}`,
      );
    }
  } finally {
    await lectern.stop();
  }
}

async function runs(): Promise<void> {
  const traced = await startBenchLectern(undefined, { LECTERN_RUN_TRACES: 'true' }, root);
  const untraced = await startBenchLectern(undefined, { LECTERN_RUN_TRACES: 'false' }, root);
  try {
    const actionOf = async (lectern: typeof traced) => {
      const app = await lectern.post('/v1/apps', { name: 'bench' });
      return lectern.post('/v1/actions/create', {
        app: app.guid,
        name: 'bench',
        model: 'mock/echo',
        prompt: 'Say {{text}}',
      });
    };
    const run = (lectern: typeof traced, guid: string) => () =>
      fetch(`${lectern.baseUrl}/v1/actions/${guid}/prompt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ input: { text: 'hello' } }),
      }).then(async (response) => {
        if (!response.ok) throw new Error(`run answered ${response.status}`);
        await response.arrayBuffer();
      });
    const [on, off] = [await actionOf(traced), await actionOf(untraced)];
    const total = Number(process.env.BENCH_RUNS ?? 2000);
    const pair = await measurePair(run(untraced, off.guid), run(traced, on.guid), {
      total,
      concurrency: 1,
      rounds: 10,
    });
    console.log(
      `sync run, tracing off vs on: p50 ${format(percentile(pair.baseline, 0.5))} vs ${format(percentile(pair.candidate, 0.5))}, overhead p50 ${format(percentile(pair.candidate, 0.5) - percentile(pair.baseline, 0.5))}; median of ${pair.roundOverheads.length} rounds ${format(percentile(pair.roundOverheads, 0.5))}; p99 ${format(percentile(pair.baseline, 0.99))} vs ${format(percentile(pair.candidate, 0.99))}`,
    );
  } finally {
    await Promise.all([traced.stop(), untraced.stop()]);
  }
}

async function main(): Promise<void> {
  if (parts.has('ingest') || parts.has('reads')) await ingestAndReads();
  if (parts.has('list')) await list();
  if (parts.has('runs')) await runs();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
