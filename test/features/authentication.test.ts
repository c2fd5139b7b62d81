import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAction,
  newWorkspace,
  request,
  startTestApp,
  type TestApp,
  unknownGuid,
} from '../helpers/test-app.js';

/** A listed key: never the key itself. */
const keyFields = [
  'created_at',
  'created_by',
  'guid',
  'last_used_at',
  'name',
  'prefix',
  'revoked_at',
  'role',
];

const adminToken = 'admin-token-for-tests-0123456789';
let test: TestApp;

beforeAll(async () => {
  test = await startTestApp({ LECTERN_ADMIN_TOKEN: adminToken });
});
afterAll(() => test.close());

const admin = (method: string, url: string, body?: unknown, token = adminToken) =>
  request(test.app, method, url, body, { authorization: `Bearer ${token}` });

describe('authentication', () => {
  it('answers 401 without a key, with a bad key, and with another scheme', async () => {
    const client = await newWorkspace(test);
    expect((await request(test.app, 'GET', '/v1/apps')).status).toBe(401);
    const bad = await request(test.app, 'GET', '/v1/apps', undefined, {
      authorization: 'Bearer lec_not-a-real-key',
    });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('unauthorized');
    const basic = await request(test.app, 'GET', '/v1/apps', undefined, {
      authorization: `Basic ${client.apiKey}`,
    });
    expect(basic.status).toBe(401);
    const header = await request(test.app, 'GET', '/v1/apps', undefined, { 'x-api-key': client.apiKey });
    expect(header.status).toBe(401);
    expect((await client.get('/v1/apps')).status).toBe(200);
  });

  it('stores keys hashed with a readable prefix only', async () => {
    const client = await newWorkspace(test);
    expect(client.apiKey).toMatch(/^lec_[A-Za-z0-9_-]{43}$/);
    const { rows: keys } = await test.app.services.workspaces.listApiKeys(client.workspaceGuid, {
      skip: 0,
      limit: 10,
    });
    expect(keys).toHaveLength(1);
    expect(keys[0]!.prefix).toBe(client.apiKey.slice(0, 12));
    expect(JSON.stringify(keys)).not.toContain(client.apiKey);
  });
});

describe('admin API', () => {
  it('needs the admin token', async () => {
    expect((await request(test.app, 'GET', '/admin/v1/workspaces')).status).toBe(401);
    expect((await admin('GET', '/admin/v1/workspaces', undefined, 'wrong-token-wrong-token')).status).toBe(
      401,
    );
    const client = await newWorkspace(test);
    expect((await admin('GET', '/admin/v1/workspaces', undefined, client.apiKey)).status).toBe(401);
    expect((await admin('GET', '/admin/v1/workspaces')).status).toBe(200);
  });

  it('creates workspaces and keys, and revoked keys fail from then on', async () => {
    const created = await admin('POST', '/admin/v1/workspaces', { name: 'Team A' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Team A',
      guid: expect.any(String),
      api_key: expect.stringMatching(/^lec_/),
    });
    const firstKey = created.body.api_key;
    expect(
      (await request(test.app, 'GET', '/v1/apps', undefined, { authorization: `Bearer ${firstKey}` })).status,
    ).toBe(200);

    const key = await admin('POST', `/admin/v1/workspaces/${created.body.guid}/api_keys`);
    expect(key.status).toBe(201);
    expect(key.body).toEqual({
      guid: expect.any(String),
      api_key: expect.stringMatching(/^lec_/),
      prefix: key.body.api_key.slice(0, 12),
    });
    const second = key.body.api_key;
    expect(
      (await request(test.app, 'GET', '/v1/apps', undefined, { authorization: `Bearer ${second}` })).status,
    ).toBe(200);

    const revoked = await admin('DELETE', `/admin/v1/api_keys/${key.body.guid}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    const after = await request(test.app, 'GET', '/v1/apps', undefined, {
      authorization: `Bearer ${second}`,
    });
    expect(after.status).toBe(401);
    // The workspace's other key is untouched.
    expect(
      (await request(test.app, 'GET', '/v1/apps', undefined, { authorization: `Bearer ${firstKey}` })).status,
    ).toBe(200);

    const listed = await admin('GET', `/admin/v1/workspaces/${created.body.guid}/api_keys`);
    expect(listed.body.data).toHaveLength(2);
    expect(JSON.stringify(listed.body)).not.toContain(firstKey);
    // Neither the key nor its hash: a listed key is its GUID, prefix and dates.
    for (const listedKey of listed.body.data) expect(Object.keys(listedKey).sort()).toEqual(keyFields);
  });

  it('lists workspaces in the list envelope', async () => {
    await admin('POST', '/admin/v1/workspaces', { name: 'Listed' });
    const listed = await admin('GET', '/admin/v1/workspaces?limit=1');
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.total_count).toBeGreaterThanOrEqual(2);
    expect(listed.body.has_next_page).toBe(true);
  });

  it('sets whether a workspace allows model overrides, taking effect on its next run', async () => {
    const client = await newWorkspace(test);
    const action = await createAction(client);
    const run = () =>
      client.post(`/v1/actions/${action.guid}/prompt`, {
        input: { name: 'x' },
        modelOptions: { model: 'json' },
      });
    expect((await run()).status).toBe(200);
    const locked = await admin('PUT', `/admin/v1/workspaces/${client.workspaceGuid}/settings`, {
      allow_model_overrides: false,
    });
    expect(locked.status).toBe(200);
    expect(locked.body.settings).toEqual({ allow_model_overrides: false, rate_limit_per_minute: null });
    expect((await run()).status).toBe(400);
    await admin('PUT', `/admin/v1/workspaces/${client.workspaceGuid}/settings`, {
      allow_model_overrides: true,
    });
    expect((await run()).status).toBe(200);
    expect((await admin('PUT', `/admin/v1/workspaces/${unknownGuid}/settings`, {})).status).toBe(404);
    expect(
      (await admin('PUT', `/admin/v1/workspaces/${client.workspaceGuid}/settings`, { other: 1 })).status,
    ).toBe(400);
  });

  it('validates its input and answers 404 for unknown workspaces and keys', async () => {
    expect((await admin('POST', '/admin/v1/workspaces', { name: '' })).status).toBe(400);
    expect((await admin('POST', `/admin/v1/workspaces/${unknownGuid}/api_keys`)).status).toBe(404);
    expect((await admin('DELETE', `/admin/v1/api_keys/${unknownGuid}`)).status).toBe(404);
    expect((await admin('DELETE', '/admin/v1/api_keys/nope')).status).toBe(400);
  });

  it('is not mounted without LECTERN_ADMIN_TOKEN', async () => {
    const plain = await startTestApp();
    try {
      expect(
        (
          await request(plain.app, 'GET', '/admin/v1/workspaces', undefined, {
            authorization: `Bearer ${adminToken}`,
          })
        ).status,
      ).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
