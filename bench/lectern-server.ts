import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { lectern, serve } from '../test/helpers/lectern-process.js';
import { createPostgresDatabase } from '../test/helpers/postgres-database.js';

/** The key every bench's Lectern starts with (a fixed value, so a kept data dir can be reused). */
/** Every bench's data directory is new: the offline models' compact form is kept across runs here. */
export const benchModelCacheDirectory = path.resolve(
  import.meta.dirname,
  '../node_modules/.cache/lectern-bench-models',
);

export const benchApiKey = 'lec_bench_key_0123456789abcdefghijklmnopqrstuv';

/** With DATABASE_URL, a database of the bench's own (bootstrap needs an empty one), dropped afterwards. */
async function benchDatabase(): Promise<{ url?: string; drop(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return { drop: async () => undefined };
  return createPostgresDatabase(serverUrl, 'lectern_bench');
}

export type BenchLectern = {
  baseUrl: string;
  /** The service's process: a bench reads its CPU time from /proc. */
  pid: number;
  /** POST with the bench key; throws unless the answer is 2xx. */
  post<Answer = { guid: string }>(route: string, body: unknown): Promise<Answer>;
  get<Answer>(route: string): Promise<Answer>;
  /** Starts another node on the same database and environment (`lectern serve`); answers its address. */
  addNode(): Promise<string>;
  /** What the service wrote so far: for a bench that fails, why. */
  output(): string;
  stop(): Promise<void>;
};

/**
 * `lectern serve` as its own process on embedded PGlite (in `dataDirectory`, or a new temporary
 * one), or on a database of its own when DATABASE_URL is set.
 */
export async function startBenchLectern(
  dataDirectory?: string,
  /** Over the bench's own environment; an empty value unsets a variable (`REDIS_URL: ''`). */
  overrides: Record<string, string> = {},
  /** Another checkout's build to serve (a baseline commit); this one by default. */
  root?: string,
): Promise<BenchLectern> {
  const database = await benchDatabase();
  // A data directory of the bench's own is removed when it stops (a loaded one is ~1 GB).
  const ownDirectory = dataDirectory ? undefined : mkdtempSync(path.join(tmpdir(), 'lectern-bench-'));
  const environment = {
    // A bench sends one key's requests as fast as it can: measure the service, not its rate limit.
    LECTERN_RATE_LIMIT_PER_MINUTE: '0',
    LECTERN_MODEL_CACHE_DIR: benchModelCacheDirectory,
    ...(process.env as Record<string, string>),
    ...overrides,
    ...(database.url && { DATABASE_URL: database.url }),
    LECTERN_DATA_DIR: dataDirectory ?? ownDirectory!,
    LECTERN_INIT_API_KEY: benchApiKey,
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
  };
  const lectern = await serve(environment, [], root);
  const extraNodes: Awaited<ReturnType<typeof serve>>[] = [];
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${benchApiKey}` };
  // biome-ignore lint/suspicious/noExplicitAny: the caller names the answer's type.
  const answer = async (route: string, response: Response): Promise<any> => {
    if (!response.ok) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };
  return {
    baseUrl: lectern.baseUrl,
    pid: lectern.child.pid!,
    output: () => lectern.output(),
    async post(route, body) {
      const url = `${lectern.baseUrl}${route}`;
      return answer(route, await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) }));
    },
    async get(route) {
      return answer(route, await fetch(`${lectern.baseUrl}${route}`, { headers }));
    },
    async addNode() {
      const node = await serve(environment, [], root);
      extraNodes.push(node);
      return node.baseUrl;
    },
    async stop() {
      await Promise.all([lectern.stop(), ...extraNodes.map((node) => node.stop())]);
      await database.drop();
      if (ownDirectory) rmSync(ownDirectory, { recursive: true, force: true });
    },
  };
}

/** A local OpenAI-compatible server (chat and embeddings) in a worker thread; `url` ends in /v1. */
export async function startUpstream(): Promise<{ url: string; stop(): Promise<number> }> {
  const worker = new Worker(new URL('./upstream-worker.mjs', import.meta.url));
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { url: `${url}/v1`, stop: () => worker.terminate() };
}

/**
 * A Lectern (as `startBenchLectern`) whose workspace has the local OpenAI-compatible server as the
 * provider `nickname`, so Actions may use `<nickname>/<any model>`; `stop` ends both.
 */
export async function startBenchLecternWithUpstream(
  nickname: string,
  dataDirectory?: string,
): Promise<BenchLectern & { upstreamUrl: string }> {
  const upstream = await startUpstream();
  // The upstream listens on loopback, which the outbound guard refuses unless the operator allows it.
  const lectern = await startBenchLectern(dataDirectory, { LECTERN_OUTBOUND_ALLOW: '127.0.0.1' });
  await lectern.post('/v1/providers', { provider: 'openai-compatible', url: upstream.url, nickname });
  return {
    ...lectern,
    upstreamUrl: upstream.url,
    async stop() {
      await lectern.stop();
      await upstream.stop();
    },
  };
}

/** `lectern gateway` as its own process in front of `upstreamUrl`, logging to the service at `serviceUrl`. */
export function startGateway(
  upstreamUrl: string,
  serviceUrl: string,
  /** Another checkout's build (a baseline); this one by default. */
  root?: string,
): Promise<{ url: string; stop(): void }> {
  const child = lectern(
    ['gateway'],
    {
      ...(process.env as Record<string, string>),
      GATEWAY_PORT: '0',
      HOST: '127.0.0.1',
      LECTERN_GATEWAY_UPSTREAM: upstreamUrl,
      LECTERN_SERVICE_URL: serviceUrl,
      // The spool of interactions waiting to be logged: a directory of the bench's own.
      LECTERN_GATEWAY_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'lectern-bench-gateway-')),
      LOG_LEVEL: 'warn',
    },
    root,
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start: ${output}`)), 60_000);
    const scan = (chunk: Buffer) => {
      output += chunk;
      const found = /Gateway listening at (http:\/\/[\d.]+:\d+)/.exec(output)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve({ url: found, stop: () => child.kill('SIGTERM') });
      }
    };
    child.stdout!.on('data', scan);
    child.stderr!.on('data', (chunk) => (output += chunk));
  });
}

/**
 * What a gateway bench measures: a local OpenAI-compatible server, a Lectern service with an Action
 * for the gateway to log to, and `lectern gateway` in front of the server; `stop` ends all three.
 */
export async function startGatewayBench() {
  const upstream = await startUpstream();
  const service = await startBenchLectern();
  const app = await service.post('/v1/apps', { name: 'gateway bench' });
  const action = await service.post('/v1/actions/create', {
    app: app.guid,
    name: 'gateway',
    model: 'mock/echo',
  });
  // LOG_LEVEL=warn: the gateway logs nothing per request; warnings (dropped logs) still show.
  const gateway = await startGateway(upstream.url, service.baseUrl);
  return {
    upstream,
    service,
    action,
    gateway,
    async stop() {
      gateway.stop();
      await service.stop();
      await upstream.stop();
    },
  };
}

/**
 * How many of an Action's generations the service holds once the gateway's log has drained: the log
 * is shipped in batches behind the proxy, so the count is read until it stops growing (2 s apart).
 */
export async function settledLogCount(serviceUrl: string, actionGuid: string): Promise<number> {
  const count = async () => {
    const response = await fetch(`${serviceUrl}/v1/actions/${actionGuid}/data?limit=1`, {
      headers: { authorization: `Bearer ${benchApiKey}` },
    });
    return Number(response.headers.get('x-total-count') ?? 0);
  };
  let previous = -1;
  for (let current = await count(); ; current = await count()) {
    if (current === previous) return current;
    previous = current;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}
