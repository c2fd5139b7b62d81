import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatUpstream, startChatUpstream } from '../helpers/chat-upstream.js';
import {
  type Client,
  clientFor,
  createAction,
  databaseUrl,
  newWorkspace,
  openEmptyDatabase,
  startTestApp,
  type TestApp,
} from '../helpers/test-app.js';

// Finding 1: the operator's environment keys are the operator's. A workspace runs on them only as
// LECTERN_SHARE_ENV_PROVIDER_KEYS allows, and gateway_payload never hands them out.

const operatorKey = 'sk-operator-environment-key-0001';
let upstream: ChatUpstream;

beforeAll(async () => {
  upstream = await startChatUpstream();
});
afterAll(async () => {
  await upstream.close();
});

const environment = (extra: Record<string, string> = {}) => ({
  OPENAI_API_KEY: operatorKey,
  OPENAI_BASE_URL: `${upstream.url}/v1`,
  ANTHROPIC_API_KEY: 'sk-ant-operator-key-0002',
  GOOGLE_GENERATIVE_AI_API_KEY: 'operator-google-key-0003',
  ...extra,
});

async function payloadOf(
  client: Client,
  fields: Record<string, unknown>,
  body: Record<string, unknown> = {},
) {
  const action = await createAction(client, { prompt: 'Say {{name}}', ...fields });
  return client.post(`/v1/actions/${action.guid}/gateway_payload`, { input: { name: 'hi' }, ...body });
}

describe('on an instance with several workspaces (auto)', () => {
  let test: TestApp;
  let client: Client;
  beforeAll(async () => {
    test = await startTestApp(environment());
    await newWorkspace(test);
    client = await newWorkspace(test);
  });
  afterAll(() => test.close());

  it('never returns an environment key from gateway_payload, for any kind or modelOptions.provider', async () => {
    const answers = [
      await payloadOf(client, { model: 'openai/gpt-4o-mini' }),
      await payloadOf(client, { model: 'anthropic/claude-sonnet-4-5' }),
      await payloadOf(client, { model: 'google/gemini-2.5-flash' }),
      await payloadOf(client, { model: 'mock/echo' }, { modelOptions: { provider: 'openai' } }),
    ];
    for (const answer of answers) {
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain(operatorKey);
      expect(text).not.toContain('operator-key');
      expect(text).not.toContain('operator-google-key');
      if (answer.status === 200) expect(answer.body.headers.Authorization).toBeUndefined();
    }
  });

  it('does not run a workspace on the operator key', async () => {
    const action = await createAction(client, { model: 'openai/gpt-4o-mini', prompt: 'Say {{name}}' });
    const calls = upstream.calls.length;
    const run = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'hi' } });
    expect(run.status).toBe(400);
    expect(run.body.message).toMatch(/No API key is configured for provider "openai"/);
    expect(upstream.calls.length).toBe(calls);
  });

  it('returns the key the workspace stored itself', async () => {
    const own = await newWorkspace(test);
    await own.post('/v1/providers', { provider: 'openai', key: 'sk-workspace-own-key' });
    const answer = await payloadOf(own, { model: 'openai/gpt-4o-mini' });
    expect(answer.body.headers.Authorization).toBe('Bearer sk-workspace-own-key');
  });
});

describe('LECTERN_SHARE_ENV_PROVIDER_KEYS=on', () => {
  let test: TestApp;
  let client: Client;
  beforeAll(async () => {
    test = await startTestApp(environment({ LECTERN_SHARE_ENV_PROVIDER_KEYS: 'on' }));
    client = await newWorkspace(test);
  });
  afterAll(() => test.close());

  it('runs on the operator key but still keeps it out of gateway_payload', async () => {
    const action = await createAction(client, { model: 'openai/gpt-test', prompt: 'Say {{name}}' });
    const run = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'hi' } });
    expect(run.status).toBe(200);
    expect(upstream.calls.at(-1)!.headers.authorization).toBe(`Bearer ${operatorKey}`);
    const answer = await client.post(`/v1/actions/${action.guid}/gateway_payload`, { input: { name: 'hi' } });
    expect(answer.status).toBe(200);
    expect(answer.body.headers.Authorization).toBeUndefined();
    expect(JSON.stringify(answer.body)).not.toContain(operatorKey);
  });
});

describe('LECTERN_SHARE_ENV_PROVIDER_KEYS=off and auto on a single-workspace instance', () => {
  it('auto shares the keys while the instance has one workspace; off never does', async () => {
    // On PGlite every app has a database of its own; on PostgreSQL this one gets an empty database.
    const empty = databaseUrl ? await openEmptyDatabase() : undefined;
    const test = await startTestApp(
      environment({ ...(empty?.url && { DATABASE_URL: empty.url }) }),
      empty?.handle,
    );
    try {
      const only = await test.app.services.workspaces.createWorkspace('the only one');
      const client = clientFor(test.app, only.apiKey, only.workspace.id);
      const action = await createAction(client, { model: 'openai/gpt-test', prompt: 'Say {{name}}' });
      const run = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'hi' } });
      expect(run.status).toBe(200);
      expect(upstream.calls.at(-1)!.headers.authorization).toBe(`Bearer ${operatorKey}`);
    } finally {
      await test.close();
      await empty?.drop();
    }
    const off = await startTestApp(environment({ LECTERN_SHARE_ENV_PROVIDER_KEYS: 'off' }));
    try {
      const client = await newWorkspace(off);
      const action = await createAction(client, { model: 'openai/gpt-test', prompt: 'Say {{name}}' });
      const run = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'hi' } });
      expect(run.status).toBe(400);
    } finally {
      await off.close();
    }
  });
});
