import { describe, expect, it } from 'vitest';
import { createAction, newWorkspace, useTestWorkspace } from '../helpers/test-app.js';

// Folders for Actions and snippets, and optimistic saves (docs/prompts-as-code.md): a save that
// names the version it started from is refused when another save came first, and nothing is lost.
const context = useTestWorkspace();

describe('folders', () => {
  it('files Actions and snippets in folders, lists a folder and those below it, and counts every folder', async () => {
    const client = await newWorkspace(context.test);
    const billing = await createAction(client, { name: 'Refunds', folder: 'support/billing' });
    const support = await createAction(client, { name: 'Greeting', folder: 'support' });
    await createAction(client, { name: 'Elsewhere', folder: 'supportive' });
    await createAction(client, { name: 'At the root' });
    expect(billing.folder).toBe('support/billing');
    await client.post('/v1/snippets', { name: 'tone', content: 'Be kind.', folder: 'support/shared' });

    const listed = await client.get('/v1/actions?folder=support');
    expect(listed.body.total_count).toBe(2);
    expect(listed.body.data.map((action: { guid: string }) => action.guid).sort()).toEqual(
      [billing.guid, support.guid].sort(),
    );
    expect((await client.get('/v1/actions?folder=support/billing')).body.data).toHaveLength(1);

    expect((await client.get('/v1/folders')).body).toEqual([
      { path: 'support', action_count: 2, snippet_count: 1 },
      { path: 'support/billing', action_count: 1, snippet_count: 0 },
      { path: 'support/shared', action_count: 0, snippet_count: 1 },
      { path: 'supportive', action_count: 1, snippet_count: 0 },
    ]);
  });

  it('moves an Action with PUT { folder } without a new version', async () => {
    const action = await createAction(context.client, { folder: 'drafts' });
    const moved = await context.client.put(`/v1/actions/${action.guid}`, { folder: 'released/v2' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ folder: 'released/v2', version: 1 });
    const root = await context.client.put(`/v1/actions/${action.guid}`, { folder: '' });
    expect(root.body).toMatchObject({ folder: '', version: 1 });
  });

  it('refuses a folder with "..", an empty segment or a segment over 64 characters, naming the field', async () => {
    const action = await createAction(context.client);
    for (const folder of ['..', 'a/../b', 'a//b', '/a', 'a/', 'x'.repeat(65), 'a\\b', 'a/b?c']) {
      const refused = await context.client.put(`/v1/actions/${action.guid}`, { folder });
      expect(refused.status, folder).toBe(400);
      expect(refused.body.error.field).toBe('folder');
    }
    const create = await context.client.post('/v1/actions/create', {
      name: 'x',
      app: action.app,
      model: 'mock/echo',
      folder: 'a/'.repeat(250),
    });
    expect(create.status).toBe(400);
    expect((await context.client.get(`/v1/actions/${action.guid}`)).body.folder).toBe('');
    expect((await context.client.get('/v1/actions?folder=..')).status).toBe(400);
  });
});

describe('optimistic saves', () => {
  it('refuses an Action save whose base_version is not the latest (409 version_conflict) and saves nothing', async () => {
    const action = await createAction(context.client, { prompt: 'one' });
    const ada = await context.client.put(`/v1/actions/${action.guid}`, { prompt: 'two', base_version: 1 });
    expect(ada.body.version).toBe(2);
    const late = await context.client.put(`/v1/actions/${action.guid}`, { prompt: 'three', base_version: 1 });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: 'version_conflict', details: { latest_version: 2 } });
    expect((await context.client.get(`/v1/actions/${action.guid}`)).body).toMatchObject({
      version: 2,
      prompt: 'two',
    });
    // A move names its base too.
    expect(
      (await context.client.put(`/v1/actions/${action.guid}`, { folder: 'x', base_version: 1 })).status,
    ).toBe(409);
  });

  it('saves concurrent saves without base_version one after the other, losing none', async () => {
    const action = await createAction(context.client, { prompt: 'one', system_message: 'sys' });
    const [first, second] = await Promise.all([
      context.client.put(`/v1/actions/${action.guid}`, { prompt: 'changed prompt' }),
      context.client.put(`/v1/actions/${action.guid}`, { system_message: 'changed system' }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const latest = (await context.client.get(`/v1/actions/${action.guid}`)).body;
    expect(latest).toMatchObject({ version: 3, prompt: 'changed prompt', system_message: 'changed system' });
  });

  it('refuses a snippet save whose base_version is not the latest', async () => {
    const name = `edited-${Math.random().toString(36).slice(2, 8)}`;
    await context.client.post('/v1/snippets', { name, content: 'one' });
    expect(
      (await context.client.put(`/v1/snippets/${name}`, { content: 'two', base_version: 1 })).body.version,
    ).toBe(2);
    const late = await context.client.put(`/v1/snippets/${name}`, { content: 'three', base_version: 1 });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: 'version_conflict', details: { latest_version: 2 } });
    expect((await context.client.get(`/v1/snippets/${name}`)).body).toMatchObject({
      version: 2,
      content: 'two',
    });
  });
});
