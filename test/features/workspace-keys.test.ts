import { expect, it } from 'vitest';
import { clientFor, newWorkspace, request, unknownGuid, useTestWorkspace } from '../helpers/test-app.js';

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

// A workspace manages its own API keys (the console's settings) with any of its keys; it may hold
// LECTERN_API_KEYS_PER_WORKSPACE live keys at once (3 here; a probe minted 5,000 in 17 s).
const context = useTestWorkspace({ LECTERN_API_KEYS_PER_WORKSPACE: '3' });

it('creates a key shown once, lists keys by prefix only, and revokes one', async () => {
  const client = await newWorkspace(context.test);
  const base = `/v1/workspace/${client.workspaceGuid}/api_keys`;
  const created = await client.post(base, undefined);
  expect(created.status).toBe(201);
  expect(created.body).toEqual({
    guid: expect.any(String),
    api_key: expect.stringMatching(/^lec_/),
    prefix: created.body.api_key.slice(0, 12),
  });
  // The new key works at once.
  const second = clientFor(context.test.app, created.body.api_key, client.workspaceGuid);
  expect((await second.get('/v1/apps')).status).toBe(200);

  const listed = await client.get(base);
  expect(listed.body.total_count).toBe(2);
  for (const key of listed.body.data) expect(Object.keys(key).sort()).toEqual(keyFields);
  expect(JSON.stringify(listed.body)).not.toContain(created.body.api_key);

  const revoked = await client.delete(`${base}/${created.body.guid}`);
  expect(revoked.status).toBe(200);
  expect(revoked.body).toEqual({ guid: created.body.guid, revoked_at: expect.any(String) });
  expect((await second.get('/v1/apps')).status).toBe(401);
  const after = await client.get(base);
  const entry = after.body.data.find((key: { guid: string }) => key.guid === created.body.guid);
  expect(entry.revoked_at).toBe(revoked.body.revoked_at);
});

it("reaches neither another workspace's keys nor its key list", async () => {
  const client = await newWorkspace(context.test);
  const other = await newWorkspace(context.test);
  const otherKey = (await other.post(`/v1/workspace/${other.workspaceGuid}/api_keys`, undefined)).body;
  expect((await client.get(`/v1/workspace/${other.workspaceGuid}/api_keys`)).status).toBe(404);
  expect((await client.post(`/v1/workspace/${other.workspaceGuid}/api_keys`, undefined)).status).toBe(404);
  // Its own workspace in the path, another workspace's key in it: as missing as an unknown key.
  const foreign = await client.delete(`/v1/workspace/${client.workspaceGuid}/api_keys/${otherKey.guid}`);
  expect(foreign.status).toBe(404);
  const stillWorks = clientFor(context.test.app, otherKey.api_key, other.workspaceGuid);
  expect((await stillWorks.get('/v1/apps')).status).toBe(200);
  expect((await client.delete(`/v1/workspace/${client.workspaceGuid}/api_keys/${unknownGuid}`)).status).toBe(
    404,
  );
  expect((await client.delete(`/v1/workspace/${client.workspaceGuid}/api_keys/nope`)).status).toBe(400);
  expect(
    (await request(context.test.app, 'GET', `/v1/workspace/${client.workspaceGuid}/api_keys`)).status,
  ).toBe(401);
});

it('refuses a key past the workspace’s live-key limit with 409, and makes one again after a revocation', async () => {
  const client = await newWorkspace(context.test);
  const base = `/v1/workspace/${client.workspaceGuid}/api_keys`;
  // The first key plus two made at once, racing for the last places: exactly the limit is kept.
  const made = await Promise.all([
    client.post(base, undefined),
    client.post(base, undefined),
    client.post(base, undefined),
  ]);
  expect(made.map((answer) => answer.status).sort()).toEqual([201, 201, 409]);
  const refused = made.find((answer) => answer.status === 409)!;
  expect(refused.body.error.code).toBe('api_key_limit');
  expect(refused.body.message).toMatch(/has 3 active API keys/);
  expect((await client.get(base)).body.total_count).toBe(3);

  const one = made.find((answer) => answer.status === 201)!;
  expect((await client.delete(`${base}/${one.body.guid}`)).status).toBe(200);
  expect((await client.post(base, undefined)).status).toBe(201);
});

it('pages the key list with skip and limit', async () => {
  const client = await newWorkspace(context.test);
  const base = `/v1/workspace/${client.workspaceGuid}/api_keys`;
  for (let made = 0; made < 2; made++) expect((await client.post(base, undefined)).status).toBe(201);
  const first = await client.get(`${base}?limit=2`);
  expect(first.body).toMatchObject({ total_count: 3, has_next_page: true });
  expect(first.body.data).toHaveLength(2);
  const rest = await client.get(`${base}?skip=2&limit=2`);
  expect(rest.body).toMatchObject({ total_count: 3, has_next_page: false });
  expect(rest.body.data).toHaveLength(1);
  const guids = [...first.body.data, ...rest.body.data].map((key: { guid: string }) => key.guid);
  expect(new Set(guids).size).toBe(3);
  expect((await client.get(`${base}?limit=0`)).status).toBe(400);
});
