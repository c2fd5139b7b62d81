import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockLanguageModel } from '../../src/llm/mock-model.js';
import { completionBody } from '../helpers/chat-upstream.js';
import { type Client, newWorkspace, startTestApp, type TestApp, unknownGuid } from '../helpers/test-app.js';

/** A local server speaking OpenAI's chat-completions wire format, recording what it was sent. */
let upstream: Server;
let upstreamUrl: string;
const received: { headers: IncomingHttpHeaders; body: any }[] = [];

let test: TestApp;
let client: Client;

beforeAll(async () => {
  upstream = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      const body = JSON.parse(text);
      received.push({ headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(completionBody(body.model, 'from upstream')));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  test = await startTestApp({
    OPENAI_API_KEY: 'env-fallback-key',
    OPENAI_BASE_URL: upstreamUrl,
    // Several workspaces share this instance: the operator says they may run on its key.
    LECTERN_SHARE_ENV_PROVIDER_KEYS: 'on',
    // The upstream listens on loopback: the operator allows it, as for a self-hosted model.
    LECTERN_OUTBOUND_ALLOW: '127.0.0.1',
  });
  client = await newWorkspace(test);
});
afterAll(async () => {
  await test.close();
  await new Promise((resolve) => upstream.close(resolve));
});

const resolve = (reference: string, workspace = client.workspaceGuid) =>
  test.app.services.models.resolve(workspace, reference);

async function callThrough(reference: string, workspace?: string) {
  const resolved = await resolve(reference, workspace);
  const result = await generateText({ model: resolved.languageModel, prompt: 'hi', maxRetries: 0 });
  return { resolved, text: result.text, request: received.at(-1)! };
}

describe('model resolution', () => {
  it('uses the workspace provider and sends its decrypted key', async () => {
    const provider = await client.post('/v1/providers', {
      provider: 'openai',
      key: 'workspace-key-1',
      url: upstreamUrl,
    });
    const { resolved, text, request } = await callThrough('openai/gpt-4o-mini');
    expect(text).toBe('from upstream');
    expect(resolved).toMatchObject({
      kind: 'openai',
      modelName: 'gpt-4o-mini',
      providerGuid: provider.body.guid,
    });
    expect(request.headers.authorization).toBe('Bearer workspace-key-1');
    expect(request.body.model).toBe('gpt-4o-mini');
    await client.delete(`/v1/providers/${provider.body.guid}`);
  });

  it('prefers the default provider of a kind, and a nickname names one exactly', async () => {
    const own = await newWorkspace(test);
    await own.post('/v1/providers', { provider: 'openai-compatible', url: upstreamUrl, key: 'plain' });
    await own.post('/v1/providers', {
      provider: 'openai-compatible',
      url: upstreamUrl,
      key: 'preferred',
      default: true,
    });
    await own.post('/v1/providers', {
      provider: 'openai-compatible',
      url: upstreamUrl,
      key: 'named',
      nickname: 'local-llm',
    });
    expect(
      (await callThrough('openai-compatible/llama3', own.workspaceGuid)).request.headers.authorization,
    ).toBe('Bearer preferred');
    const named = await callThrough('local-llm/llama3', own.workspaceGuid);
    expect(named.request.headers.authorization).toBe('Bearer named');
    expect(named.request.body.model).toBe('llama3');
  });

  it('resolves a model record by GUID', async () => {
    const own = await newWorkspace(test);
    const provider = await own.post('/v1/providers', {
      provider: 'openai',
      key: 'by-guid',
      url: upstreamUrl,
    });
    const model = await own.post('/v1/models', { provider: provider.body.guid, name: 'gpt-4.1' });
    const { request } = await callThrough(model.body.guid, own.workspaceGuid);
    expect(request.headers.authorization).toBe('Bearer by-guid');
    expect(request.body.model).toBe('gpt-4.1');
  });

  it('falls back to the instance environment key when the workspace has no provider', async () => {
    const own = await newWorkspace(test);
    const { resolved, request } = await callThrough('openai/gpt-4o', own.workspaceGuid);
    expect(resolved.providerGuid).toBeUndefined();
    expect(request.headers.authorization).toBe('Bearer env-fallback-key');
  });

  it('fails clearly when no key is available, and for unknown references', async () => {
    const own = await newWorkspace(test);
    await expect(resolve('anthropic/claude-sonnet-4-5', own.workspaceGuid)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('No API key'),
    });
    const keyless = await own.post('/v1/providers', { provider: 'mistral' });
    expect(keyless.status).toBe(201);
    await expect(resolve('mistral/mistral-small', own.workspaceGuid)).rejects.toMatchObject({ status: 400 });
    await expect(resolve('skynet/x', own.workspaceGuid)).rejects.toMatchObject({ status: 400 });
    await expect(resolve(unknownGuid, own.workspaceGuid)).rejects.toMatchObject({ status: 400 });
    await expect(resolve('no-slash', own.workspaceGuid)).rejects.toMatchObject({ status: 400 });
  });

  it('resolves mock models without any key', async () => {
    const own = await newWorkspace(test);
    const resolved = await resolve('mock/echo', own.workspaceGuid);
    expect(resolved.languageModel).toBeInstanceOf(MockLanguageModel);
    await expect(resolve('mock/nonsense', own.workspaceGuid)).rejects.toMatchObject({ status: 400 });
  });
});
