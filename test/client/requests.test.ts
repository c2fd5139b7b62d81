import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  AbortedError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  Lectern,
  LecternError,
  NotFoundError,
  NotSupportedError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '@lectern/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, useSdkWorkspace } from '../helpers/klu-sdk.js';
import { createAction, unknownGuid } from '../helpers/test-app.js';

// The client's requests against a listening Lectern (typed routes, the error families with the
// service's status, code and message) and against a scripted server (retries, Retry-After, time
// limits, aborts).

async function failure(call: Promise<unknown>): Promise<LecternError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof LecternError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

describe('against Lectern', () => {
  // Listening at the address its LECTERN_BASE_URL names, so stream URLs it answers reach it.
  const sdk = useSdkWorkspace();
  const lectern = {
    get client() {
      return sdk.context.client;
    },
  };
  let client: Lectern;

  beforeAll(() => {
    client = new Lectern({ baseUrl: `http://127.0.0.1:${sdk.port}`, apiKey: sdk.context.client.apiKey });
  });

  it('reaches typed routes: runs an Action by slug and reads it back', async () => {
    const action = await createAction(lectern.client, { slug: 'typed-greeter' });
    const answer = await client.actions.run('typed-greeter', { name: 'Ada' });
    expect(answer.msg).toBe('Hello Ada');
    const read = await client.request('GET /v1/actions/{guidOrSlug}', { path: { guidOrSlug: action.guid } });
    expect(read.slug).toBe('typed-greeter');
    const listed = await client.request('GET /v1/actions', { query: { q: 'typed', limit: 5 } });
    expect(listed.data.map((item) => item.guid)).toEqual([action.guid]);
    const generation = await client.request('GET /v1/data/{guid}', { path: { guid: answer.data_guid } });
    expect(generation.output).toBe('Hello Ada');
  });

  it('throws each status family with the service’s status, code, message and field', async () => {
    const missing = await failure(client.request('GET /v1/apps/{guid}', { path: { guid: unknownGuid } }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
    expect(missing.message).toContain(missing.serverMessage);

    const invalid = await failure(client.request('POST /v1/apps', { body: { name: '' } }));
    expect(invalid).toBeInstanceOf(BadRequestError);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_error', field: 'name' });

    const viewerKey = await client.request('POST /v1/api_keys', { body: { name: 'reader', role: 'viewer' } });
    const viewer = new Lectern({ baseUrl: client.http.options.baseUrl, apiKey: viewerKey.api_key });
    const refused = await failure(viewer.request('POST /v1/apps', { body: { name: 'not mine to make' } }));
    expect(refused).toBeInstanceOf(PermissionDeniedError);
    expect(refused).toMatchObject({ status: 403, code: 'forbidden' });

    await createAction(lectern.client, { slug: 'taken' });
    const app = await client.request('POST /v1/apps', { body: { name: 'second' } });
    const duplicate = await failure(
      client.request('POST /v1/actions/create', {
        body: { name: 'again', slug: 'taken', app: app.guid, model: 'mock/echo', prompt: 'x' },
      }),
    );
    expect(duplicate).toBeInstanceOf(ConflictError);
    expect(duplicate).toMatchObject({
      status: 409,
      serverMessage: 'slug: another Action of this workspace has it',
    });

    const unsupported = await failure(
      client.http.request({ method: 'GET', path: `/v1/finetune/${unknownGuid}` }),
    );
    expect(unsupported).toBeInstanceOf(NotSupportedError);
    expect(unsupported).toMatchObject({ status: 501, code: 'not_supported' });
  });

  it('answers a second read of a stream URL with a ConflictError (410 stream has been consumed)', async () => {
    const action = await createAction(lectern.client, { prompt: '{{text}}' });
    const run = await client.actions.stream(action.guid, { text: 'once only' });
    expect(await run.text()).toBe('once only');
    const again = await failure(
      client
        .streamTokens(run.streamingUrl.replace('http://lectern.test', client.http.options.baseUrl))
        .next(),
    );
    expect(again).toBeInstanceOf(ConflictError);
    expect(again).toMatchObject({ status: 410, serverMessage: 'stream has been consumed' });
  });
});

describe('against a scripted server', () => {
  let server: Server;
  let address: string;
  const attempts = new Map<string, number[]>();
  const scripts: Record<
    string,
    (request: IncomingMessage, response: ServerResponse, attempt: number) => void
  > = {
    '/rate-limited': (_, response, attempt) => {
      if (attempt === 1)
        response.writeHead(429, { 'retry-after-ms': '300', 'content-type': 'application/json' });
      else response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        attempt === 1
          ? '{"error":{"status":429,"code":"rate_limited","message":"slow down"}}'
          : '{"ok":true}',
      );
    },
    '/unavailable': (_, response) => {
      response.writeHead(503, { 'content-type': 'application/json' });
      response.end(
        '{"error":{"status":503,"code":"queue_unavailable","message":"The job queue is unavailable"}}',
      );
    },
    '/broken': (_, response) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end('{"error":{"status":500,"code":"internal","message":"boom"}}');
    },
    '/silent': () => undefined,
    '/v1/actions/flaky/prompt': (request, response, attempt) => {
      keys.push(request.headers['idempotency-key'] as string | undefined);
      response.writeHead(attempt === 1 ? 502 : 200, { 'content-type': 'application/json' });
      response.end(
        attempt === 1
          ? '{"error":{"status":502,"code":"provider_error","message":"upstream"}}'
          : '{"msg":"ok","full_prompt_sent":[],"data_guid":"g","feedback_url":"f"}',
      );
    },
  };
  const keys: Array<string | undefined> = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = new URL(request.url!, 'http://x').pathname;
      const times = attempts.get(path) ?? [];
      times.push(performance.now());
      attempts.set(path, times);
      scripts[path]?.(request, response, times.length);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    address = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });

  it('waits out a 429’s Retry-After and then succeeds', async () => {
    const client = new Lectern({ baseUrl: address });
    expect((await client.http.request({ method: 'POST', path: '/rate-limited', body: {} })).body).toEqual({
      ok: true,
    });
    const [first, second] = attempts.get('/rate-limited')!;
    expect(second! - first!).toBeGreaterThanOrEqual(290);
  });

  it('retries a 5xx GET up to maxRetries, then throws a ServerError with the service’s message', async () => {
    const client = new Lectern({ baseUrl: address, maxRetries: 2 });
    const error = await failure(client.http.request({ method: 'GET', path: '/unavailable' }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({
      status: 503,
      code: 'queue_unavailable',
      serverMessage: 'The job queue is unavailable',
    });
    expect(attempts.get('/unavailable')).toHaveLength(3);
  });

  it('does not retry a POST that failed with a 500 unless it carries an Idempotency-Key', async () => {
    const client = new Lectern({ baseUrl: address, maxRetries: 2 });
    await failure(client.http.request({ method: 'POST', path: '/broken', body: {} }));
    expect(attempts.get('/broken')).toHaveLength(1);
    await failure(client.http.request({ method: 'POST', path: '/broken', body: {}, idempotencyKey: 'k-1' }));
    expect(attempts.get('/broken')).toHaveLength(4);
    const rateLimited = await failure(
      new Lectern({ baseUrl: address, maxRetries: 0 }).http.request({ method: 'GET', path: '/unavailable' }),
    );
    expect(rateLimited).not.toBeInstanceOf(RateLimitError);
  });

  it('retries a run after a 5xx only with idempotentRuns, sending the same Idempotency-Key again', async () => {
    const plain = await failure(new Lectern({ baseUrl: address }).actions.run('flaky', 'x'));
    expect(plain).toMatchObject({ status: 502, code: 'provider_error' });
    expect(keys).toEqual([undefined]);
    attempts.delete('/v1/actions/flaky/prompt');
    keys.length = 0;
    const answer = await new Lectern({ baseUrl: address, idempotentRuns: true }).actions.run('flaky', 'x');
    expect(answer.msg).toBe('ok');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('gives up on an attempt after timeoutMs (a TimeoutError) and on an aborted one at once', async () => {
    const client = new Lectern({ baseUrl: address, timeoutMs: 200, maxRetries: 1 });
    const started = performance.now();
    const timedOut = await failure(client.http.request({ method: 'GET', path: '/silent' }));
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    expect(attempts.get('/silent')).toHaveLength(2);

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const aborted = await failure(
      new Lectern({ baseUrl: address }).http.request({
        method: 'GET',
        path: '/silent',
        signal: controller.signal,
      }),
    );
    expect(aborted).toBeInstanceOf(AbortedError);
    expect(attempts.get('/silent')).toHaveLength(3);
  });

  it('throws a ConnectionError when nothing listens', async () => {
    const port = await freePort();
    const error = await failure(
      new Lectern({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 }).request('GET /v1/me'),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toContain('could not reach Lectern');
  });
});
