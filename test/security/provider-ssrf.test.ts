import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundFetchError } from '../../src/platform/outbound-guard.js';
import { type Client, createAction, newWorkspace, startTestApp, type TestApp } from '../helpers/test-app.js';

// Finding 2: a provider's base URL is tenant input. Every provider call goes through the outbound
// guard, a URL with a query or fragment is refused, and an internal service's answer stays inside.

type Internal = { url: string; port: number; requests: string[]; server: Server };

async function startInternal(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<Internal> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => handler(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, requests, server };
}

const secretBody = 'INTERNAL-ADMIN-SECRET-7f3a';
let admin: Internal;
let elsewhere: Internal;
let redirecting: Internal;

beforeAll(async () => {
  admin = await startInternal((_request, response) => {
    response.writeHead(500, { 'content-type': 'application/json', 'retry-after': '0' });
    response.end(JSON.stringify({ error: { message: secretBody } }));
  });
  elsewhere = await startInternal((_request, response) => response.end('{}'));
  redirecting = await startInternal((_request, response) => {
    response.writeHead(307, { location: `http://localhost:${elsewhere.port}/v1/chat/completions` });
    response.end();
  });
});
afterAll(() => {
  for (const each of [admin, elsewhere, redirecting]) {
    each.server.closeAllConnections();
    each.server.close();
  }
});

async function runOn(client: Client, provider: Record<string, unknown>) {
  const nickname = `p${Math.random().toString(36).slice(2, 10)}`;
  const created = await client.post('/v1/providers', { key: 'sk-tenant', nickname, ...provider });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const action = await createAction(client, {
    model: `${nickname}/internal`,
    prompt: 'Hi {{name}}',
    model_config: { num_retries: 0 },
  });
  return client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'x' } });
}

describe('without LECTERN_OUTBOUND_ALLOW', () => {
  let test: TestApp;
  let client: Client;
  beforeAll(async () => {
    test = await startTestApp();
    client = await newWorkspace(test);
  });
  afterAll(() => test.close());

  it('refuses a base URL with a query, a fragment or credentials, naming the field', async () => {
    for (const url of [
      `${admin.url}/internal/admin?x=`,
      `${admin.url}/v1#fragment`,
      `http://user:pass@127.0.0.1:${admin.port}/v1`,
    ]) {
      const created = await client.post('/v1/providers', { provider: 'openai-compatible', url, key: 'k' });
      expect(created.status, url).toBe(400);
      expect(created.body.message).toMatch(/url/);
    }
    const model = await client.post('/v1/models', {
      provider: 'openai',
      key: 'k',
      url: `${admin.url}/v1?x=`,
      name: 'm',
    });
    expect(model.status).toBe(400);
  });

  it('never connects to a loopback, private or embedded-IPv4 address, and says so the same way for open and closed ports', async () => {
    const answers = [];
    for (const provider of [
      { provider: 'openai-compatible', url: `${admin.url}/v1` },
      { provider: 'openai', url: `http://localhost:${admin.port}/v1` },
      { provider: 'anthropic', url: `http://[::ffff:127.0.0.1]:${admin.port}/v1` },
      { provider: 'mistral', url: `http://[::7f00:1]:${admin.port}/v1` },
      { provider: 'groq', url: `http://169.254.169.254/latest` },
      { provider: 'openai-compatible', url: 'http://127.0.0.1:1/v1' },
    ]) {
      const response = await runOn(client, provider);
      expect(response.status, JSON.stringify(provider)).toBe(400);
      expect(response.body.message).toMatch(/not public/);
      answers.push(response.body.message.replace(/^\S+ /, '').replace(/address \S+ /, 'address X '));
    }
    expect(admin.requests).toEqual([]);
    // An open port (admin's) and a closed one (1) read alike: no port scanning through errors.
    expect(answers[0]).toBe(answers.at(-1));
  });

  it('guards embedding models too', async () => {
    const created = await client.post('/v1/providers', {
      provider: 'openai-compatible',
      url: `${admin.url}/v1`,
      nickname: 'embedder',
    });
    expect(created.status).toBe(201);
    const resolved = await test.app.services.models.resolveEmbedding(client.workspaceGuid, 'embedder/e5');
    await expect(resolved.embeddingModel.doEmbed({ values: ['x'] })).rejects.toBeInstanceOf(
      OutboundFetchError,
    );
    expect(admin.requests).toEqual([]);
  });
});

describe('with the address allowed (a self-hosted model)', () => {
  let test: TestApp;
  let client: Client;
  beforeAll(async () => {
    test = await startTestApp({ LECTERN_OUTBOUND_ALLOW: '127.0.0.1' });
    client = await newWorkspace(test);
  });
  afterAll(() => test.close());

  it('reaches it, but shows only the status of its error answer, never its body', async () => {
    const before = admin.requests.length;
    const response = await runOn(client, { provider: 'openai-compatible', url: `${admin.url}/v1` });
    expect(admin.requests.length).toBe(before + 1);
    expect(response.status).toBe(502);
    expect(response.body.message).toMatch(/500/);
    expect(JSON.stringify(response.body)).not.toContain(secretBody);
  });

  it('does not follow a redirect to another origin', async () => {
    const response = await runOn(client, { provider: 'openai-compatible', url: `${redirecting.url}/v1` });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/another origin/);
    expect(elsewhere.requests).toEqual([]);
  });
});
