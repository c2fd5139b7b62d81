import { beforeAll, describe, expect, it } from 'vitest';
import { createAction, createApp, newWorkspace, unknownGuid, useTestWorkspace } from '../helpers/test-app.js';

let app: string;

const context = useTestWorkspace();

beforeAll(async () => {
  app = await createApp(context.client);
});

describe('action create and read', () => {
  it('creates version 1 deployed to the default environment', async () => {
    const created = await context.client.post('/v1/actions/create', {
      name: 'Summarise Tickets!',
      app,
      model: 'mock/echo',
      prompt: 'Summarise {{ticket}}',
      model_config: { temperature: 0.2, stop: 'END' },
      tools: [{ name: 'lookup', description: 'Find a ticket', parameters: { type: 'object' } }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      slug: 'summarise-tickets',
      name: 'Summarise Tickets!',
      app,
      model: 'mock/echo',
      prompt: 'Summarise {{ticket}}',
      messages: null,
      system_message: null,
      model_config: { temperature: 0.2, stop: ['END'] },
      contexts: [],
      skills: [],
      tools: [{ name: 'lookup', description: 'Find a ticket', parameters: { type: 'object' } }],
      version: 1,
      default_environment: 'production',
      deployments: { production: 1 },
      disabled: false,
    });
    const byGuid = await context.client.get(`/v1/actions/${created.body.guid}`);
    const bySlug = await context.client.get('/v1/actions/summarise-tickets');
    expect(byGuid.body).toEqual(created.body);
    expect(bySlug.body).toEqual(created.body);
  });

  it('generates unique slugs and refuses a taken explicit slug', async () => {
    const first = await createAction(context.client, { app, name: 'Dup name' });
    const second = await createAction(context.client, { app, name: 'Dup name' });
    const third = await createAction(context.client, { app, name: 'Dup name' });
    expect([first.slug, second.slug, third.slug]).toEqual(['dup-name', 'dup-name-2', 'dup-name-3']);
    const taken = await context.client.post('/v1/actions/create', {
      name: 'x',
      app,
      model: 'mock/echo',
      slug: 'dup-name',
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain('slug');
    // Another workspace may use the same slug.
    const other = await newWorkspace(context.test);
    expect((await createAction(other, { name: 'Dup name' })).slug).toBe('dup-name');
  });

  it('accepts messages and a system message and a custom default environment', async () => {
    const created = await createAction(context.client, {
      app,
      prompt: undefined,
      system_message: 'You are {{persona}}',
      messages: [
        { role: 'user', content: 'Hi {{name}}' },
        { role: 'assistant', content: 'Hello' },
      ],
      default_environment: 'staging',
      slug: 'chatty',
    });
    expect(created.deployments).toEqual({ staging: 1 });
    expect(created.messages).toHaveLength(2);
  });

  it('validates each field, naming it', async () => {
    const base = { name: 'Valid', app, model: 'mock/echo' };
    const cases: [Record<string, unknown>, string, number?][] = [
      [{ ...base, name: undefined }, 'body.name'],
      [{ ...base, app: 'nope' }, 'body.app'],
      [{ ...base, model: undefined }, 'body.model'],
      [{ ...base, model: 'gpt-4o' }, 'model'],
      [{ ...base, model: 'nosuch/gpt-4o' }, 'model'],
      [{ ...base, model: 'mock/unknown' }, 'model'],
      [{ ...base, model: unknownGuid }, 'model'],
      [{ ...base, prompt: 'Hi {{ name ' }, 'prompt'],
      [{ ...base, prompt: '{% if x %}open' }, 'prompt'],
      [{ ...base, system_message: '{% for %}' }, 'system_message'],
      [
        {
          ...base,
          messages: [
            { role: 'user', content: 'ok' },
            { role: 'user', content: '{{ a | nosuchfilter }}' },
          ],
        },
        'messages.1.content',
      ],
      [{ ...base, messages: [{ role: 'wizard', content: 'x' }] }, 'body.messages.0.role'],
      [{ ...base, model_config: { temperature: 9 } }, 'body.model_config.temperature'],
      [{ ...base, model_config: { colour: 'blue' } }, 'colour'],
      [{ ...base, contexts: ['not-a-guid'] }, 'body.contexts.0'],
      [{ ...base, tools: [{ name: 'has space' }] }, 'body.tools.0.name'],
      [{ ...base, slug: 'Bad Slug' }, 'body.slug'],
      [{ ...base, slug: unknownGuid }, 'body.slug'],
      [{ ...base, default_environment: 'no spaces please' }, 'body.default_environment'],
      [{ ...base, unknown_field: 1 }, 'unknown_field'],
    ];
    for (const [body, field] of cases) {
      const response = await context.client.post('/v1/actions/create', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message, JSON.stringify(body)).toContain(field);
    }
    const missingApp = await context.client.post('/v1/actions/create', { ...base, app: unknownGuid });
    expect(missingApp.status).toBe(404);
    // Nothing half-stored: the workspace has only the Actions created successfully above.
    const listed = await context.client.get('/v1/actions?limit=1000');
    expect(listed.body.data.map((action: { name: string }) => action.name)).not.toContain('Valid');
  });

  it('lists Actions with pagination and an app filter', async () => {
    const own = await newWorkspace(context.test);
    const firstApp = await createApp(own, 'first');
    const secondApp = await createApp(own, 'second');
    for (let index = 0; index < 3; index++) await createAction(own, { app: firstApp, name: `a${index}` });
    await createAction(own, { app: secondApp, name: 'b' });
    const page = await own.get('/v1/actions?limit=2&skip=0');
    expect(page.body).toMatchObject({ total_count: 4, has_next_page: true });
    expect(page.body.data).toHaveLength(2);
    const filtered = await own.get(`/v1/actions?app=${secondApp}`);
    expect(filtered.body.data.map((action: { name: string }) => action.name)).toEqual(['b']);
  });

  it('searches names and slugs on the server and tells when each Action last ran', async () => {
    const own = await newWorkspace(context.test);
    const support = await createAction(own, { name: 'Refund Reply', prompt: 'Reply {{name}}' });
    await createAction(own, { name: 'Weekly digest', slug: 'digest_refunds' });
    await createAction(own, { name: 'Haiku' });
    const names = async (query: string) =>
      (await own.get(`/v1/actions${query}`)).body.data.map((action: { name: string }) => action.name);
    expect(await names('?q=REFUND')).toEqual(['Weekly digest', 'Refund Reply']);
    expect(await names('?q=refund&limit=1')).toEqual(['Weekly digest']);
    expect((await own.get('/v1/actions?q=refund')).body.total_count).toBe(2);
    expect(await names('?q=%25')).toEqual([]);

    const before = (await own.get('/v1/actions?q=Refund%20Reply')).body.data[0];
    expect(before.last_run_at).toBeNull();
    const started = Date.now();
    await own.post(`/v1/actions/${support.guid}/prompt`, { input: { name: 'Ada' } });
    const after = (await own.get('/v1/actions?q=Refund%20Reply')).body.data[0];
    expect(Date.parse(after.last_run_at)).toBeGreaterThanOrEqual(started - 1_000);
    // The list's field only: reading one Action answers the record as before.
    expect((await own.get(`/v1/actions/${support.guid}`)).body).not.toHaveProperty('last_run_at');
    expect((await own.get('/v1/actions?q=x&app=nope')).status).toBe(400);
  });
});

describe('versions and deployments', () => {
  it('saves a new version on PUT and deploys nothing', async () => {
    const action = await createAction(context.client, { app, prompt: 'v1 {{name}}', name: 'Versioned' });
    const updated = await context.client.put(`/v1/actions/${action.guid}`, {
      prompt: 'v2 {{name}}',
      name: 'Versioned again',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      version: 2,
      prompt: 'v2 {{name}}',
      name: 'Versioned again',
      model: 'mock/echo',
    });
    expect(updated.body.deployments).toEqual({ production: 1 });

    const third = await context.client.put(`/v1/actions/${action.guid}`, { model: 'mock/json' });
    expect(third.body).toMatchObject({ version: 3, prompt: 'v2 {{name}}', model: 'mock/json' });

    const deployed = await context.client.post(`/v1/actions/${action.guid}/deploy`, {
      version: 2,
      environment: 'staging',
    });
    expect(deployed.status).toBe(200);
    expect(deployed.body.deployments).toEqual({ production: 1, staging: 2 });
    const redeployed = await context.client.post(`/v1/actions/${action.guid}/deploy`, {
      version: 3,
      environment: 'production',
    });
    expect(redeployed.body.deployments).toEqual({ production: 3, staging: 2 });

    const versions = await context.client.get(`/v1/actions/${action.guid}/versions`);
    expect(versions.body.total_count).toBe(3);
    expect(
      versions.body.data.map((version: any) => [version.version, version.prompt, version.environments]),
    ).toEqual([
      [3, 'v2 {{name}}', ['production']],
      [2, 'v2 {{name}}', ['staging']],
      [1, 'v1 {{name}}', []],
    ]);
  });

  it('gives concurrent saves consecutive version numbers', async () => {
    const action = await createAction(context.client, { app, name: 'Concurrent' });
    const saves = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        context.client.put(`/v1/actions/${action.guid}`, { prompt: `p${index}` }),
      ),
    );
    expect(saves.map((save) => save.status)).toEqual([200, 200, 200, 200, 200]);
    const versions = await context.client.get(`/v1/actions/${action.guid}/versions`);
    expect(versions.body.data.map((version: any) => version.version)).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('refuses a deploy of a missing version or a bad environment, and a bad update', async () => {
    const action = await createAction(context.client, { app, name: 'Deploy rules' });
    const missing = await context.client.post(`/v1/actions/${action.guid}/deploy`, {
      version: 7,
      environment: 'production',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('version');
    const badEnvironment = await context.client.post(`/v1/actions/${action.guid}/deploy`, {
      version: 1,
      environment: 'a b',
    });
    expect(badEnvironment.status).toBe(400);
    expect(badEnvironment.body.message).toContain('environment');
    expect(
      (await context.client.post(`/v1/actions/${action.guid}/deploy`, { version: '1', environment: 'x' }))
        .status,
    ).toBe(400);
    const badTemplate = await context.client.put(`/v1/actions/${action.guid}`, { prompt: '{{ oops' });
    expect(badTemplate.status).toBe(400);
    expect((await context.client.get(`/v1/actions/${action.guid}`)).body.version).toBe(1);
  });

  it('disables and enables an Action', async () => {
    const action = await createAction(context.client, { app, name: 'Switch' });
    const disabled = await context.client.post(`/v1/actions/${action.guid}/disable`);
    expect(disabled.body.disabled).toBe(true);
    expect((await context.client.get(`/v1/actions/${action.guid}`)).body.disabled).toBe(true);
    expect((await context.client.post(`/v1/actions/${action.guid}/enable`)).body.disabled).toBe(false);
  });
});

describe('workspace isolation', () => {
  it("answers 404 for another workspace's Action on every route", async () => {
    const action = await createAction(context.client, { app, name: 'Secret action', slug: 'secret-action' });
    const stranger = await newWorkspace(context.test);
    const strangerApp = await createApp(stranger);
    const routes: [string, string, unknown?][] = [
      ['GET', `/v1/actions/${action.guid}`],
      ['GET', '/v1/actions/secret-action'],
      ['PUT', `/v1/actions/${action.guid}`, { prompt: 'stolen' }],
      ['POST', `/v1/actions/${action.guid}/deploy`, { version: 1, environment: 'production' }],
      ['GET', `/v1/actions/${action.guid}/versions`],
      ['POST', `/v1/actions/${action.guid}/disable`, {}],
      ['POST', `/v1/actions/${action.guid}/enable`, {}],
    ];
    for (const [method, url, body] of routes) {
      const response = await stranger.request(method, url, body);
      expect(response.status, `${method} ${url}`).toBe(404);
    }
    // Nor can an Action be put into another workspace's App.
    expect(
      (await context.client.post('/v1/actions/create', { name: 'x', app: strangerApp, model: 'mock/echo' }))
        .status,
    ).toBe(404);
    expect((await context.client.put(`/v1/actions/${action.guid}`, { app: strangerApp })).status).toBe(404);
    const unchanged = await context.client.get(`/v1/actions/${action.guid}`);
    expect(unchanged.body).toMatchObject({ version: 1, disabled: false, app });
  });
});
