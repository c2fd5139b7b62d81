import { describe, expect, it } from 'vitest';
import { createAction, newWorkspace, unknownGuid, useTestWorkspace } from '../helpers/test-app.js';

const context = useTestWorkspace();

describe('apps', () => {
  it('creates, reads, renames and soft-deletes an App', async () => {
    // Through the route map: a field these routes stop answering fails this test's compilation.
    const { api } = context.client;
    const created = await api('POST /v1/apps', { body: { name: 'Support', description: 'Ticket triage' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Support',
      description: 'Ticket triage',
      guid: expect.any(String),
    });
    const guid = created.body.guid;

    expect((await api('GET /v1/apps/{guid}', { path: { guid } })).body.name).toBe('Support');
    const renamed = await api('PUT /v1/apps/{guid}', { path: { guid }, body: { name: 'Support desk' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Support desk', description: 'Ticket triage' });

    expect((await api('DELETE /v1/apps/{guid}', { path: { guid } })).status).toBe(200);
    const gone = await api('GET /v1/apps/{guid}', { path: { guid } });
    expect([gone.status, gone.error?.code]).toEqual([404, 'not_found']);
    expect((await api('DELETE /v1/apps/{guid}', { path: { guid } })).status).toBe(404);
    const listed = await api('GET /v1/apps', { query: { limit: 1000 } });
    expect(listed.body.data.map((app) => app.guid)).not.toContain(guid);
  });

  it('validates each field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'body.name'],
      [{ name: '' }, 'body.name'],
      [{ name: 'x', description: 5 }, 'body.description'],
      [{ name: 'x', color: 'red' }, 'color'],
    ];
    for (const [body, field] of cases) {
      const response = await context.client.post('/v1/apps', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message).toContain(field);
    }
    const created = await context.client.post('/v1/apps', { name: 'x' });
    expect((await context.client.put(`/v1/apps/${created.body.guid}`, {})).status).toBe(400);
  });

  it('lists the Actions of an App', async () => {
    const app = (await context.client.post('/v1/apps', { name: 'With actions' })).body.guid;
    const other = (await context.client.post('/v1/apps', { name: 'Other' })).body.guid;
    await createAction(context.client, { app, name: 'one' });
    await createAction(context.client, { app, name: 'two' });
    await createAction(context.client, { app: other, name: 'three' });
    const listed = await context.client.api('GET /v1/apps/{guid}/actions', { path: { guid: app } });
    expect(listed.status).toBe(200);
    // A bare array, as the official SDK reads it (docs/api.md#actions); the total in X-Total-Count.
    expect(listed.headers['x-total-count']).toBe('2');
    expect(listed.body.map((action) => action.name).sort()).toEqual(['one', 'two']);
    const page = await context.client.api('GET /v1/apps/{guid}/actions', {
      path: { guid: app },
      query: { skip: 1, limit: 1 },
    });
    expect(page.body).toHaveLength(1);
    expect((await context.client.get(`/v1/apps/${unknownGuid}/actions`)).status).toBe(404);
  });

  it("answers 404 for another workspace's App on every route", async () => {
    const guid = (await context.client.post('/v1/apps', { name: 'Private' })).body.guid;
    const stranger = await newWorkspace(context.test);
    expect((await stranger.get(`/v1/apps/${guid}`)).status).toBe(404);
    expect((await stranger.put(`/v1/apps/${guid}`, { name: 'stolen' })).status).toBe(404);
    expect((await stranger.delete(`/v1/apps/${guid}`)).status).toBe(404);
    expect((await stranger.get(`/v1/apps/${guid}/actions`)).status).toBe(404);
    expect((await stranger.get('/v1/apps')).body.total_count).toBe(0);
    expect((await context.client.get(`/v1/apps/${guid}`)).body.name).toBe('Private');
  });
});
