import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, inject } from 'vitest';
import {
  type Answer,
  type RequestArguments,
  type Route,
  requestTarget,
} from '../../packages/client/src/api/typed-request.js';
import { buildApp, type LecternApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { ErrorResponse } from '../../src/core/wire.js';
import { type DatabaseHandle, openDatabase } from '../../src/platform/database/connection.js';
import { createLogger } from '../../src/platform/logger.js';
import { createPlatform, type Platform } from '../../src/platform/platform.js';
import { testModelCacheDirectory } from './model-cache.js';
import { createPostgresDatabase } from './postgres-database.js';

/** Tests run on PostgreSQL when DATABASE_URL is set (CI's second pass), else on PGlite. */
export const databaseUrl = process.env.DATABASE_URL || undefined;

import { temporaryDirectory } from './temporary-directory.js';

export { removeTemporaryDirectories, temporaryDirectory } from './temporary-directory.js';

/** A database for one test file: PGlite from the run's migrated snapshot, or the shared PostgreSQL. */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  if (databaseUrl) return openDatabase({ databaseUrl }, () => undefined);
  const snapshot = new Blob([readFileSync(inject('pgliteSnapshotPath'))]);
  return openDatabase({ dataDirectory: 'memory', snapshot }, () => undefined);
}

/** A new, empty database on the PostgreSQL server of DATABASE_URL (bootstrap and CLI tests). */
export async function createEmptyPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!databaseUrl) throw new Error('DATABASE_URL is not set');
  return createPostgresDatabase(databaseUrl, 'lectern_test');
}

/** An empty database of its own: a PGlite from the snapshot, or a new database on the PostgreSQL server. */
export async function openEmptyDatabase(): Promise<{
  handle: DatabaseHandle;
  /** Its PostgreSQL URL (undefined on PGlite). */
  url?: string;
  drop(): Promise<void>;
}> {
  if (!databaseUrl) {
    const handle = await openTestDatabase();
    return { handle, drop: () => handle.close() };
  }
  const empty = await createEmptyPostgresDatabase();
  const handle = await openDatabase({ databaseUrl: empty.url }, () => undefined);
  return {
    handle,
    url: empty.url,
    async drop() {
      await handle.close().catch(() => undefined);
      await empty.drop();
    },
  };
}

export type TestApp = {
  app: LecternApp;
  platform: Platform;
  /** Every log line the app wrote (JSON text), for secret-leak checks. */
  logs: string[];
  close(): Promise<void>;
};

export async function startTestApp(
  environment: Record<string, string> = {},
  database?: DatabaseHandle,
): Promise<TestApp> {
  const config = loadConfig({
    LECTERN_DATA_DIR: temporaryDirectory(),
    LECTERN_MODEL_CACHE_DIR: testModelCacheDirectory,
    LOG_LEVEL: 'trace',
    LECTERN_BASE_URL: 'http://lectern.test',
    // Every answer the suite receives is checked against its route's declared schema.
    LECTERN_CHECK_RESPONSES: 'on',
    // The PostgreSQL pass runs the scale-out parts too: file bytes in PostgreSQL, streams in Redis.
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    ...(process.env.REDIS_URL && { REDIS_URL: process.env.REDIS_URL }),
    ...environment,
  });
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const logger = createLogger(config, destination);
  const handle = database ?? (await openTestDatabase());
  const platform = await createPlatform(config, logger, { database: handle, ownsDatabase: true });
  const app = await buildApp(platform);
  return {
    app,
    platform,
    logs,
    async close() {
      await app.close();
      await platform.close();
    },
  };
}

export type Response = { status: number; body: any; headers: Record<string, unknown> };

/**
 * An answer of a route of the route map: its success body typed as /openapi.json declares it (the
 * console's map, packages/client/src/api/api-types.ts), so a test that reads a field the route no
 * longer answers fails to compile. An error answer's body is the error body (`error`).
 */
export type TypedResponse<R extends Route> = {
  status: number;
  body: Answer<R>;
  error: ErrorResponse['error'] | undefined;
  headers: Record<string, unknown>;
};

/** A client of one workspace, speaking real HTTP through Fastify's inject. */
export type Client = {
  apiKey: string;
  workspaceGuid: string;
  /** A route of the route map by its name, `'POST /v1/apps'`, with its path, query and body typed. */
  api<R extends Route>(route: R, ...options: RequestArguments<R>): Promise<TypedResponse<R>>;
  request(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  get(url: string): Promise<Response>;
  post(url: string, body?: unknown): Promise<Response>;
  put(url: string, body?: unknown): Promise<Response>;
  delete(url: string): Promise<Response>;
};

export async function request(
  app: LecternApp,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  let parsed: unknown = response.body;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    // Not JSON (docs page, streams): keep the text.
  }
  return { status: response.statusCode, body: parsed, headers: response.headers };
}

type Send = (
  method: string,
  url: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Response>;

/** A client of the workspace over `send`, which adds the credential (a key, a console session). */
export function clientOver(send: Send, apiKey: string, workspaceGuid: string): Client {
  return {
    apiKey,
    workspaceGuid,
    async api(route, ...[options]) {
      const { method, path } = requestTarget(route, options);
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries((options?.query ?? {}) as Record<string, unknown>))
        if (value !== undefined) query.append(name, String(value));
      const url = query.size > 0 ? `${path}?${query}` : path;
      const body = options?.body ?? (method === 'POST' || method === 'PUT' ? {} : undefined);
      const response = await send(method, url, body, options?.headers);
      const error = response.status >= 400 ? response.body?.error : undefined;
      return { ...response, error };
    },
    request: send,
    get: (url) => send('GET', url),
    post: (url, body) => send('POST', url, body ?? {}),
    put: (url, body) => send('PUT', url, body ?? {}),
    delete: (url) => send('DELETE', url),
  };
}

export function clientFor(app: LecternApp, apiKey: string, workspaceGuid: string): Client {
  const send: Send = (method, url, body, headers = {}) =>
    request(app, method, url, body, { authorization: `Bearer ${apiKey}`, ...headers });
  return clientOver(send, apiKey, workspaceGuid);
}

/** A new workspace of its own: tests never reset shared state, they work in unique workspaces. */
export async function newWorkspace(test: TestApp): Promise<Client> {
  const workspace = await test.app.services.workspaces.createWorkspace(`test-${randomUUID().slice(0, 8)}`);
  return clientFor(test.app, workspace.apiKey, workspace.workspace.id);
}

export async function createApp(client: Client, name = 'Test app'): Promise<string> {
  const response = await client.post('/v1/apps', { name });
  if (response.status !== 201) throw new Error(`app create failed: ${JSON.stringify(response.body)}`);
  return response.body.guid;
}

export async function createAction(client: Client, fields: Record<string, unknown> = {}): Promise<any> {
  const app = (fields.app as string | undefined) ?? (await createApp(client));
  const response = await client.post('/v1/actions/create', {
    name: 'Greeter',
    model: 'mock/echo',
    prompt: 'Hello {{name}}',
    ...fields,
    app,
  });
  if (response.status !== 201) throw new Error(`action create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

export const unknownGuid = '00000000-0000-4000-8000-000000000000';

/**
 * The usual set-up of a test file: one app on its own database and one workspace client, started
 * before the file's tests and closed after them. Read the fields inside tests, not at import time.
 */
export function useTestWorkspace(
  /** A function when the values exist only once earlier hooks ran (a local bucket's port). */
  environment: Record<string, string> | (() => Record<string, string>) = {},
  options: {
    /**
     * On PostgreSQL every test file shares one database and so one job queue, and any file's worker
     * may run another file's jobs. A file whose jobs must run with its own configuration (an outbound
     * allow-list), or not before it starts its worker, gets an empty database of its own there.
     */
    ownJobQueue?: boolean;
    /** Starts the app's job worker with the app (files whose routes queue jobs: async runs, workflows). */
    startJobs?: boolean;
  } = {},
): {
  test: TestApp;
  client: Client;
} {
  const context = {} as { test: TestApp; client: Client };
  let drop = async (): Promise<unknown> => undefined;
  beforeAll(async () => {
    let database: DatabaseHandle | undefined;
    let own: Awaited<ReturnType<typeof openEmptyDatabase>> | undefined;
    if (options.ownJobQueue && databaseUrl) {
      own = await openEmptyDatabase();
      database = own.handle;
      drop = own.drop;
    }
    // The app's configuration names its own database: nodes of one database share a job queue.
    context.test = await startTestApp(
      {
        ...(own?.url && { DATABASE_URL: own.url }),
        ...(typeof environment === 'function' ? environment() : environment),
      },
      database,
    );
    context.client = await newWorkspace(context.test);
    if (options.startJobs) context.test.platform.jobs.start();
  });
  afterAll(async () => {
    await context.test.close();
    await drop();
  });
  return context;
}

/** Listens on a free local port (SSE needs a real socket); returns the address. */
export async function listen(test: TestApp): Promise<string> {
  return test.app.listen({ port: 0, host: '127.0.0.1' });
}

/** A returned URL (`LECTERN_BASE_URL` is http://lectern.test in tests) pointed at the listening server. */
export function atAddress(url: string, address: string): string {
  return url.replace('http://lectern.test', address);
}

export type ServerSentEvent = { event?: string; id?: string; data: string };

/** Parses a complete `text/event-stream` body. */
export function parseEvents(body: string): ServerSentEvent[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event: ServerSentEvent = { data: '' };
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event.event = line.slice(7);
        if (line.startsWith('id: ')) event.id = line.slice(4);
        if (line.startsWith('data: ')) event.data += line.slice(6);
      }
      return event;
    });
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<Value>(
  check: () => Promise<Value | undefined>,
  timeoutMs = 10_000,
): Promise<Value> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The environment for `lectern` processes of one test file: a data dir of their own and, on
 * PostgreSQL, an empty database of their own (dropped after the file). Read `.values` inside tests.
 */
export function useProcessEnvironment(extra: Record<string, string> = {}): {
  values: Record<string, string>;
} {
  const environment = { values: {} as Record<string, string> };
  let drop = async (): Promise<unknown> => undefined;
  beforeAll(async () => {
    environment.values = {
      ...(process.env as Record<string, string>),
      LECTERN_DATA_DIR: temporaryDirectory(),
      LECTERN_MODEL_CACHE_DIR: testModelCacheDirectory,
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      ...extra,
    };
    if (databaseUrl) {
      const empty = await createEmptyPostgresDatabase();
      environment.values.DATABASE_URL = empty.url;
      drop = empty.drop;
    }
  });
  afterAll(() => drop());
  return environment;
}

/** Runs `work` while the platform's job queue refuses every job (a queue that is down). */
export async function whileQueueRefuses<Answer>(
  platform: Platform,
  work: () => Promise<Answer>,
): Promise<Answer> {
  const { jobs } = platform;
  const enqueue = jobs.enqueue;
  jobs.enqueue = async () => {
    throw new Error('queue down');
  };
  try {
    return await work();
  } finally {
    jobs.enqueue = enqueue;
  }
}
