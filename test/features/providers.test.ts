import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { providers } from '../../src/features/models/providers/tables.js';
import { createAction, createApp, newWorkspace, unknownGuid, useTestWorkspace } from '../helpers/test-app.js';

const canary = 'sk-canary-7f3e9c1d2b4a-do-not-leak';

const context = useTestWorkspace();

describe('providers', () => {
  it('stores the key encrypted and never returns or logs it', async () => {
    const responses: string[] = [];
    const created = await context.client.post('/v1/providers', {
      provider: 'openai',
      key: canary,
      nickname: 'team-openai',
    });
    responses.push(JSON.stringify(created.body));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      provider: 'openai',
      nickname: 'team-openai',
      has_key: true,
      default: false,
      url: null,
    });
    expect(created.body).not.toHaveProperty('key');
    const guid = created.body.guid;
    responses.push(JSON.stringify((await context.client.get(`/v1/providers/${guid}`)).body));
    responses.push(JSON.stringify((await context.client.get('/v1/providers')).body));
    responses.push(
      JSON.stringify((await context.client.put(`/v1/providers/${guid}`, { key: `${canary}-2` })).body),
    );
    // A failing request carrying the key must not echo it either.
    responses.push(
      JSON.stringify((await context.client.post('/v1/providers', { provider: 'nope', key: canary })).body),
    );
    responses.push(
      JSON.stringify(
        (
          await context.client.post('/v1/providers', {
            provider: 'openai',
            key: canary,
            nickname: 'team-openai',
          })
        ).body,
      ),
    );
    for (const body of responses) expect(body).not.toContain('canary');
    expect(context.test.logs.length).toBeGreaterThan(0);
    expect(context.test.logs.join('\n')).not.toContain('canary');

    const [row] = await context.test.platform.database.database
      .select()
      .from(providers)
      .where(eq(providers.id, guid));
    expect(row!.encryptedKey).not.toContain('canary');
    expect(context.test.platform.secretBox.decrypt(row!.encryptedKey!)).toBe(`${canary}-2`);
  });

  it('updates, removes a key, and deletes', async () => {
    const created = await context.client.post('/v1/providers', { provider: 'anthropic', key: 'k-1' });
    const guid = created.body.guid;
    const cleared = await context.client.put(`/v1/providers/${guid}`, { key: null, nickname: 'claude' });
    expect(cleared.body).toMatchObject({ has_key: false, nickname: 'claude' });
    expect((await context.client.delete(`/v1/providers/${guid}`)).status).toBe(200);
    expect((await context.client.get(`/v1/providers/${guid}`)).status).toBe(404);
  });

  it('keeps one default per kind', async () => {
    const own = await newWorkspace(context.test);
    const first = await own.post('/v1/providers', { provider: 'groq', key: 'a', default: true });
    const second = await own.post('/v1/providers', { provider: 'groq', key: 'b', default: true });
    const mistral = await own.post('/v1/providers', { provider: 'mistral', key: 'c', default: true });
    expect((await own.get(`/v1/providers/${first.body.guid}`)).body.default).toBe(false);
    expect((await own.get(`/v1/providers/${second.body.guid}`)).body.default).toBe(true);
    expect((await own.get(`/v1/providers/${mistral.body.guid}`)).body.default).toBe(true);
  });

  it('validates each field', async () => {
    const cases: [unknown, string, number][] = [
      [{}, 'body.provider', 400],
      [{ provider: 'skynet' }, 'body.provider', 400],
      [{ provider: 'openai-compatible' }, 'body.url', 400],
      [{ provider: 'openai-compatible', url: 'ftp://models.local' }, 'body.url', 400],
      [{ provider: 'openai', key: '' }, 'body.key', 400],
      [{ provider: 'openai', nickname: 'has space' }, 'body.nickname', 400],
      [{ provider: 'openai', nickname: 'anthropic' }, 'body.nickname', 400],
      [{ provider: 'openai', default: 'yes' }, 'body.default', 400],
    ];
    for (const [body, field, status] of cases) {
      const response = await context.client.post('/v1/providers', body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.message).toContain(field);
    }
    const compatible = await context.client.post('/v1/providers', {
      provider: 'openai-compatible',
      url: 'http://127.0.0.1:11434/v1',
    });
    expect(compatible.status).toBe(201);
    const cleared = await context.client.put(`/v1/providers/${compatible.body.guid}`, { url: null });
    expect(cleared.status).toBe(400);
    expect(cleared.body.message).toContain('url');
  });

  it('manages model records and refuses to delete a provider that has some', async () => {
    const provider = await context.client.post('/v1/providers', {
      provider: 'openai',
      key: 'k',
      nickname: 'models-test',
    });
    const model = await context.client.post('/v1/models', {
      provider: provider.body.guid,
      name: 'gpt-4o-mini',
    });
    expect(model.status).toBe(201);
    expect(model.body).toMatchObject({
      name: 'gpt-4o-mini',
      provider: provider.body.guid,
      provider_kind: 'openai',
      reference: 'models-test/gpt-4o-mini',
    });
    expect((await context.client.get(`/v1/models/${model.body.guid}`)).body).toEqual(model.body);
    expect((await context.client.get('/v1/models')).body.map((row: { guid: string }) => row.guid)).toContain(
      model.body.guid,
    );
    // An Action may name the model record by GUID.
    const action = await createAction(context.client, { model: model.body.guid });
    expect(action.model).toBe(model.body.guid);

    expect((await context.client.delete(`/v1/providers/${provider.body.guid}`)).status).toBe(409);
    expect((await context.client.delete(`/v1/models/${model.body.guid}`)).status).toBe(200);
    expect((await context.client.get(`/v1/models/${model.body.guid}`)).status).toBe(404);
    expect((await context.client.delete(`/v1/providers/${provider.body.guid}`)).status).toBe(200);
    expect((await context.client.post('/v1/models', { provider: unknownGuid, name: 'x' })).status).toBe(404);
    expect((await context.client.post('/v1/models', { provider: provider.body.guid })).status).toBe(400);
  });

  it("answers 404 for another workspace's providers and models", async () => {
    const provider = await context.client.post('/v1/providers', { provider: 'google', key: 'k' });
    const model = await context.client.post('/v1/models', {
      provider: provider.body.guid,
      name: 'gemini-2.0-flash',
    });
    const stranger = await newWorkspace(context.test);
    for (const [method, url, body] of [
      ['GET', `/v1/providers/${provider.body.guid}`],
      ['PUT', `/v1/providers/${provider.body.guid}`, { nickname: 'mine' }],
      ['DELETE', `/v1/providers/${provider.body.guid}`],
      ['GET', `/v1/models/${model.body.guid}`],
      ['DELETE', `/v1/models/${model.body.guid}`],
    ] as [string, string, unknown?][]) {
      expect((await stranger.request(method, url, body)).status, `${method} ${url}`).toBe(404);
    }
    expect((await stranger.post('/v1/models', { provider: provider.body.guid, name: 'x' })).status).toBe(404);
    expect((await stranger.get('/v1/providers')).body.total_count).toBe(0);
    // Nor can a stranger's Action use the model record.
    const strangerApp = await createApp(stranger);
    const refused = await stranger.post('/v1/actions/create', {
      name: 'x',
      app: strangerApp,
      model: model.body.guid,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('model');
  });
});
