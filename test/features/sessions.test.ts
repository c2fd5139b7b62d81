import { describe, expect, it } from 'vitest';
import { createAction, newWorkspace, unknownGuid, useTestWorkspace } from '../helpers/test-app.js';

const context = useTestWorkspace();

describe('sessions', () => {
  it('creates, reads, renames, lists by extUserId and deletes sessions', async () => {
    const { client } = context;
    const action = await createAction(client);
    const created = await client.post('/v1/sessions', {
      action: action.guid,
      name: 'Chat',
      extUserId: 'user-a',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      guid: expect.any(String),
      name: 'Chat',
      action: action.guid,
      ext_user_id: 'user-a',
    });
    const unnamed = await client.post('/v1/sessions', { action: action.guid });
    expect(unnamed.body).toMatchObject({ name: null, ext_user_id: null });

    expect((await client.get(`/v1/sessions/${created.body.guid}`)).body.name).toBe('Chat');
    const renamed = await client.put(`/v1/sessions/${created.body.guid}`, {
      name: 'Support chat',
      extUserId: 'user-b',
    });
    expect(renamed.body).toMatchObject({ name: 'Support chat', ext_user_id: 'user-b' });
    const noName = await client.put(`/v1/sessions/${created.body.guid}`, { extUserId: 'user-c' });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toMatch(/body\.name/);

    const filtered = await client.get('/v1/sessions?extUserId=user-b');
    expect(filtered.body.data.map((session: { guid: string }) => session.guid)).toEqual([created.body.guid]);
    const all = await client.get('/v1/sessions');
    expect(all.body.total_count).toBe(2);

    expect((await client.delete(`/v1/sessions/${created.body.guid}`)).status).toBe(200);
    expect((await client.get(`/v1/sessions/${created.body.guid}`)).status).toBe(404);
    expect((await client.delete(`/v1/sessions/${created.body.guid}`)).status).toBe(404);
    expect((await client.get('/v1/sessions')).body.total_count).toBe(1);
  });

  it('refuses an unknown Action, a bad GUID and another workspace’s session', async () => {
    const action = await createAction(context.client);
    expect((await context.client.post('/v1/sessions', { action: unknownGuid })).status).toBe(404);
    expect((await context.client.post('/v1/sessions', { action: 'nope' })).status).toBe(400);
    const session = await context.client.post('/v1/sessions', { action: action.guid });
    const other = await newWorkspace(context.test);
    expect((await other.get(`/v1/sessions/${session.body.guid}`)).status).toBe(404);
    expect((await other.put(`/v1/sessions/${session.body.guid}`, { name: 'x' })).status).toBe(404);
    expect((await other.get(`/v1/sessions/${session.body.guid}/data`)).status).toBe(404);
    expect((await other.post('/v1/sessions', { action: action.guid })).status).toBe(404);
  });

  it('sends earlier turns before the new input and lists the session’s generations', async () => {
    const { client } = context;
    const action = await createAction(client, { prompt: 'Q: {{q}}', system_message: 'Chat.' });
    const session = (await client.post('/v1/sessions', { action: action.guid })).body;
    const run = (q: string) =>
      client.post(`/v1/actions/${action.guid}/prompt`, { input: { q }, session: session.guid });

    const first = await run('one');
    expect(first.body.full_prompt_sent).toEqual([
      { role: 'system', content: 'Chat.' },
      { role: 'user', content: 'Q: one' },
    ]);
    await run('two');
    const third = await run('three');
    expect(third.body.full_prompt_sent).toEqual([
      { role: 'system', content: 'Chat.' },
      { role: 'user', content: 'Q: one' },
      { role: 'assistant', content: 'Q: one' },
      { role: 'user', content: 'Q: two' },
      { role: 'assistant', content: 'Q: two' },
      { role: 'user', content: 'Q: three' },
    ]);

    const data = await client.get(`/v1/sessions/${session.guid}/data`);
    expect(data.body.total_count).toBe(3);
    expect(data.body.data[0]).toMatchObject({ session: session.guid, output: 'Q: three' });
    const page = await client.get(`/v1/sessions/${session.guid}/data?skip=2&limit=5`);
    expect(page.body.data.map((record: { output: string }) => record.output)).toEqual(['Q: one']);
  });

  it('refuses to run another Action with a session, and a deleted or unknown session', async () => {
    const { client } = context;
    const owner = await createAction(client);
    const stranger = await createAction(client);
    const session = (await client.post('/v1/sessions', { action: owner.guid })).body;
    const wrong = await client.post(`/v1/actions/${stranger.guid}/prompt`, {
      input: 'x',
      session: session.guid,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('session: this session belongs to another Action');
    const unknown = await client.post(`/v1/actions/${owner.guid}/prompt`, {
      input: 'x',
      session: unknownGuid,
    });
    expect(unknown.status).toBe(404);
    await client.delete(`/v1/sessions/${session.guid}`);
    const deleted = await client.post(`/v1/actions/${owner.guid}/prompt`, {
      input: 'x',
      session: session.guid,
    });
    expect(deleted.status).toBe(404);
  });
});
