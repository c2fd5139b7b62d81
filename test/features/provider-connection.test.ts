import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newWorkspace, unknownGuid, useTestWorkspace } from '../helpers/test-app.js';

// POST /v1/providers/{guid}/test: the provider's model list, asked with its stored key and URL.
const context = useTestWorkspace({ LECTERN_OUTBOUND_ALLOW: '127.0.0.1' });

let server: Server;
let url: string;
const seen: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request.headers.authorization);
    if (request.url !== '/v1/models') return void response.writeHead(404).end();
    if (request.headers.authorization !== 'Bearer good-key') return void response.writeHead(401).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"id":"small"}]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const addProvider = async (body: object) => {
  const created = await context.client.post('/v1/providers', body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.guid as string;
};
const test = async (guid: string) => (await context.client.post(`/v1/providers/${guid}/test`)).body;

it('says the key is taken when the provider lists its models with it, and refused when it answers 401', async () => {
  const good = await addProvider({
    provider: 'openai-compatible',
    url,
    key: 'good-key',
    nickname: 'local-good',
  });
  expect(await test(good)).toEqual({
    ok: true,
    message: expect.stringContaining('answered with its models'),
  });
  expect(seen.at(-1)).toBe('Bearer good-key');
  const bad = await addProvider({
    provider: 'openai-compatible',
    url,
    key: 'wrong-key',
    nickname: 'local-bad',
  });
  expect(await test(bad)).toEqual({ ok: false, message: 'the key was refused (401)' });
  const mock = await addProvider({ provider: 'mock', nickname: 'offline' });
  expect((await test(mock)).ok).toBe(true);
});

it('goes through the outbound guard: a private address is reported, never reached', async () => {
  const before = seen.length;
  const hidden = await addProvider({
    provider: 'openai-compatible',
    url: 'http://10.0.0.7:8080/v1',
    nickname: 'private',
  });
  const answer = await test(hidden);
  expect(answer.ok).toBe(false);
  expect(answer.message).toMatch(/could not reach 10\.0\.0\.7:8080/);
  expect(seen.length).toBe(before);
});

it('answers 404 for an unknown provider or one of another workspace', async () => {
  expect((await context.client.post(`/v1/providers/${unknownGuid}/test`)).status).toBe(404);
  const other = await newWorkspace(context.test);
  const foreign = (await other.post('/v1/providers', { provider: 'mock', nickname: 'theirs' })).body.guid;
  expect((await context.client.post(`/v1/providers/${foreign}/test`)).status).toBe(404);
});
