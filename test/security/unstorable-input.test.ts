import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completionBody, startScriptedUpstream } from '../helpers/chat-upstream.js';
import {
  atAddress,
  createAction,
  eventually,
  listen,
  parseEvents,
  useTestWorkspace,
} from '../helpers/test-app.js';

// Findings 8 and 14: what PostgreSQL cannot store is refused at the edge with a 400 naming the field
// (or, in a model's output, dropped); absurd input is a 4xx; a database's error text never reaches a
// client, not in a response, a stream's error event or an async result.

const context = useTestWorkspace(
  { LECTERN_OUTBOUND_ALLOW: '127.0.0.1' },
  { startJobs: true, ownJobQueue: true },
);

/** A chat-completions server whose every answer carries a NUL. */
let upstream: Awaited<ReturnType<typeof startScriptedUpstream>>;
let upstreamUrl: string;
/** The app listens once per file (SSE needs a socket). */
let address: string | undefined;
const listening = async () => {
  address ??= await listen(context.test);
  return address;
};
const chunk = (model: unknown, delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
beforeAll(async () => {
  upstream = await startScriptedUpstream((body, _request, response) => {
    if (!body.stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end(JSON.stringify(completionBody(String(body.model), 'nul\u0000here')));
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const content of ['nul', '\u0000', 'here']) response.write(chunk(body.model, { content }));
    response.write(chunk(body.model, {}, 'stop'));
    response.end('data: [DONE]\n\n');
  });
  upstreamUrl = `${upstream.url}/v1`;
});
afterAll(() => upstream.close());

/** Polls an async run's result URL until `done` says it has settled. */
async function settledResult(resultUrl: string, done: (body: unknown) => boolean, timeoutMs?: number) {
  const path = new URL(resultUrl).pathname;
  return eventually(async () => {
    const answer = await context.client.get(path);
    return done(answer.body) ? answer : undefined;
  }, timeoutMs);
}

describe('input PostgreSQL cannot store', () => {
  it('refuses NUL and unpaired surrogates in any string or key with a 400 naming the field, storing nothing', async () => {
    const { client } = context;
    const before = (await client.get('/v1/apps')).body.total_count;
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['POST', '/v1/apps', { name: 'a\u0000b' }, /body\.name/],
      ['POST', '/v1/apps', { name: 'half \ud800 pair' }, /body\.name/],
      ['POST', '/v1/apps', { name: 'ok', description: 'x\udc00' }, /body\.description/],
      ['POST', '/v1/apps', { name: 'ok', 'bad\u0000key': 1 }, /body/],
    ];
    for (const [method, url, body, field] of cases) {
      const response = await client.request(method, url, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message).toMatch(field);
      expect(response.body.message).toMatch(/NUL/);
    }
    // error.field names a body field as the client wrote it, without the part it came in.
    const named = await client.post('/v1/apps', { name: 'a\u0000b' });
    expect(named.body.error.field).toBe('name');
    expect((await client.get('/v1/apps')).body.total_count).toBe(before);

    const action = await createAction(client);
    const run = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'x\u0000' } });
    expect(run.status).toBe(400);
    expect(run.body.message).toMatch(/body\.input\.name/);
    expect((await client.get(`/v1/actions/${action.guid}/data`)).body).toEqual([]);
  });

  it('answers a NUL in the path or query with a 4xx, never a 500', async () => {
    const { client } = context;
    for (const url of [
      '/v1/actions/%00',
      '/v1/apps/%00',
      '/v1/apps?skip=%00',
      '/v1/contexts/a%00b/documents',
    ]) {
      const response = await client.get(url);
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(response.status, url).toBeLessThan(500);
    }
  });

  it('refuses JSON nested thousands deep and integers past what a column holds', async () => {
    const { client } = context;
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const response = await client.request('POST', '/v1/apps', `{"name":"deep","description":${deep}}`);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/nested deeper than 64/);
    const action = await createAction(client);
    for (const version of [99_999_999_999, 2_147_483_648]) {
      const run = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'x' }, version });
      expect(run.status).toBe(400);
      expect(run.body.message).toMatch(/version/);
    }
    expect((await client.get('/v1/apps?skip=99999999999999')).status).toBe(400);
  });
});

describe('a NUL in a model answer', () => {
  it('is dropped, and the run and its record survive: sync, stream and async', async () => {
    const { client } = context;
    await client.post('/v1/providers', { provider: 'openai-compatible', url: upstreamUrl, nickname: 'nul' });
    const action = await createAction(client, { model: 'nul/any', prompt: 'Say {{name}}' });

    const sync = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'x' } });
    expect(sync.status).toBe(200);
    expect(sync.body.msg).toBe('nulhere');
    expect((await client.get(`/v1/data/${sync.body.data_guid}`)).body.output).toBe('nulhere');

    const address = await listening();
    const streamed = await client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { name: 'x' },
      streaming: true,
    });
    const events = parseEvents(await (await fetch(atAddress(streamed.body.streaming_url, address))).text());
    expect(
      events.map((event) => event.event ?? 'token'),
      JSON.stringify(events),
    ).not.toContain('error');
    const text = events
      .filter((event) => event.event === undefined && event.data.startsWith('{'))
      .map((event) => JSON.parse(event.data).token)
      .join('');
    expect(text).toBe('nulhere');
    await eventually(async () => {
      const record = await client.get(`/v1/data/${streamed.body.data_guid}`);
      return record.status === 200 ? record : undefined;
    });

    const queued = await client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { name: 'x' },
      async_mode: true,
    });
    const result = await settledResult(
      queued.body.result_url,
      (body) => !/^pending$/i.test((body as { status?: string }).status ?? ''),
    );
    expect(JSON.stringify(result.body)).toContain('nulhere');
  });
});

describe('database errors', () => {
  it('never reach a client: a stream error event and an async result say only that it failed', async () => {
    const { client, test } = context;
    const action = await createAction(client, { prompt: 'Say {{name}}' });
    const data = test.app.services.generations as unknown as {
      recordRun: (...args: unknown[]) => Promise<unknown>;
    };
    const recordRun = data.recordRun;
    const statement =
      'Failed query: insert into "generations" ("id", "output") values ($1, $2) params: secret-output';
    data.recordRun = async () => {
      throw Object.assign(new Error(statement), { code: '22P05' });
    };
    try {
      const address = await listening();
      const streamed = await client.post(`/v1/actions/${action.guid}/prompt`, {
        input: { name: 'x' },
        streaming: true,
      });
      const body = await (await fetch(atAddress(streamed.body.streaming_url, address))).text();
      expect(body).toContain('event: error');
      expect(body).not.toContain('Failed query');
      expect(body).not.toContain('secret-output');

      const queued = await client.post(`/v1/actions/${action.guid}/prompt`, {
        input: { name: 'x' },
        async_mode: true,
      });
      const result = await settledResult(
        queued.body.result_url,
        (body) => /fail/i.test(JSON.stringify(body)),
        30_000,
      );
      expect(JSON.stringify(result.body)).not.toContain('Failed query');
      expect(JSON.stringify(result.body)).not.toContain('secret-output');
    } finally {
      data.recordRun = recordRun;
    }
  }, 40_000);
});
