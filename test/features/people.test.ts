import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  addPerson,
  cookieClient,
  ownAddressPerSignIn,
  sameOrigin,
  signedInPerson,
  signIn,
  testPassword,
  uniqueAddress,
} from '../helpers/people.js';
import {
  clientFor,
  createAction,
  createApp,
  request,
  startTestApp,
  useTestWorkspace,
} from '../helpers/test-app.js';

// People and roles (docs/security.md#people-and-roles), black-box: people sign in with a password, hold a role in each workspace, invite
// others, make API keys up to their own role; each role's refusals are 403 (the route walk in
// test/security/role-walk.test.ts covers every route), and the last owner stays.
const context = useTestWorkspace(ownAddressPerSignIn);
const workspaceGuid = () => context.client.workspaceGuid;

describe('signing in with a password', () => {
  it('signs a member in: the session names the workspace, the role and the person', async () => {
    const person = await addPerson(context.test, workspaceGuid(), 'developer');
    const { response, cookie } = await signIn(context.test, person.email.toUpperCase(), person.password);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      workspace: { guid: workspaceGuid(), name: expect.any(String) },
      role: 'developer',
      user: { guid: person.id, email: person.email, name: 'developer' },
    });
    const session = await request(context.test.app, 'GET', '/console/v1/session', undefined, {
      cookie: cookie!,
    });
    expect(session.body.role).toBe('developer');
    const me = await cookieClient(context.test, cookie!, workspaceGuid()).get('/v1/me');
    expect(me.body).toMatchObject({
      principal: 'user',
      role: 'developer',
      key: null,
      user: { guid: person.id },
    });
    expect(me.body.rights).toContain('write');
    expect(me.body.rights).not.toContain('manage');
  });

  it('answers a wrong password and an unknown address alike, with 401', async () => {
    const person = await addPerson(context.test, workspaceGuid(), 'viewer');
    const wrong = await signIn(context.test, person.email, 'not the password at all');
    const unknown = await signIn(context.test, 'nobody@example.com', 'not the password at all');
    expect(wrong.response.status).toBe(401);
    expect(unknown.response.status).toBe(401);
    expect(wrong.response.body.message).toBe(unknown.response.body.message);
    expect(wrong.cookie).toBeUndefined();
  });

  it('limits failures per address: the 11th attempt within 15 minutes is 429 with Retry-After', async () => {
    const person = await addPerson(context.test, workspaceGuid(), 'viewer');
    const from = { 'x-forwarded-for': uniqueAddress() };
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const { response } = await signIn(context.test, person.email, `wrong-password-${attempt}`, from);
      expect(response.status).toBe(401);
    }
    const limited = await signIn(context.test, person.email, person.password, from);
    expect(limited.response.status).toBe(429);
    expect(Number(limited.response.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses a deactivated person, and stops their keys', async () => {
    const { person, client } = await signedInPerson(context.test, workspaceGuid(), 'developer');
    const key = await client.post('/v1/api_keys', { name: 'laptop' });
    expect(key.status).toBe(201);
    const keyClient = clientFor(context.test.app, key.body.api_key, workspaceGuid());
    expect((await keyClient.get('/v1/apps')).status).toBe(200);
    await context.test.app.services.accounts.updatePerson(person.id, { active: false });
    expect((await keyClient.get('/v1/apps')).status).toBe(401);
    expect((await client.get('/v1/apps')).status).toBe(401);
    expect((await signIn(context.test, person.email, person.password)).response.status).toBe(401);
  });

  it('changes a password, given the current one', async () => {
    const { person, client } = await signedInPerson(context.test, workspaceGuid(), 'viewer');
    const refused = await client.put('/v1/me/password', {
      current_password: 'wrong',
      new_password: 'another long password',
    });
    expect(refused.status).toBe(401);
    const short = await client.put('/v1/me/password', {
      current_password: person.password,
      new_password: 'short',
    });
    expect(short.status).toBe(400);
    expect(short.body.error.field).toBe('new_password');
    const changed = await client.put('/v1/me/password', {
      current_password: person.password,
      new_password: 'another long password',
    });
    expect(changed.status).toBe(200);
    expect((await signIn(context.test, person.email, person.password)).response.status).toBe(401);
    expect((await signIn(context.test, person.email, 'another long password')).response.status).toBe(201);
  });
});

describe('members and invitations', () => {
  it('invites a person, who accepts once and is signed in with the role', async () => {
    const { client: admin } = await signedInPerson(context.test, workspaceGuid(), 'admin');
    const email = `invitee-${Date.now()}@example.com`;
    const invited = await admin.post('/v1/members', { email, role: 'developer' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email, role: 'developer', emailed: false });
    const token = new URL(invited.body.invite_url).searchParams.get('token')!;
    const pending = await admin.get('/v1/invitations');
    expect(pending.body.data.map((each: { email: string }) => each.email)).toContain(email);
    expect(JSON.stringify(pending.body)).not.toContain(token);

    const shortPassword = await request(
      context.test.app,
      'POST',
      '/console/v1/invitations/accept',
      { token, password: 'short' },
      sameOrigin,
    );
    expect(shortPassword.status).toBe(400);
    const accepted = await request(
      context.test.app,
      'POST',
      '/console/v1/invitations/accept',
      { token, name: 'Ada', password: testPassword },
      sameOrigin,
    );
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ role: 'developer', user: { email, name: 'Ada' } });
    expect(String(accepted.headers['set-cookie'])).toMatch(/^lectern_session=/);
    const again = await request(
      context.test.app,
      'POST',
      '/console/v1/invitations/accept',
      { token, password: testPassword },
      sameOrigin,
    );
    expect(again.status).toBe(404);
    const members = await admin.get('/v1/members');
    expect(members.body.data).toContainEqual({ user: expect.objectContaining({ email }), role: 'developer' });
  });

  it('never lets an invitation link alone take over an existing account', async () => {
    const { client: admin } = await signedInPerson(context.test, workspaceGuid(), 'admin');
    const existing = await addPerson(
      context.test,
      (await context.test.app.services.workspaces.createWorkspace('elsewhere')).workspace.id,
      'owner',
    );
    const invited = await admin.post('/v1/members', { email: existing.email, role: 'viewer' });
    const token = new URL(invited.body.invite_url).searchParams.get('token')!;
    const taken = await request(
      context.test.app,
      'POST',
      '/console/v1/invitations/accept',
      { token, password: 'a guess that is long' },
      sameOrigin,
    );
    expect(taken.status).toBe(401);
    const joined = await request(
      context.test.app,
      'POST',
      '/console/v1/invitations/accept',
      { token, password: existing.password },
      sameOrigin,
    );
    expect(joined.status).toBe(201);
    expect(joined.body.role).toBe('viewer');
  });

  it('lets an admin manage roles below owner only, and keeps the last owner', async () => {
    const workspace = await context.test.app.services.workspaces.createWorkspace('owners');
    const guid = workspace.workspace.id;
    const { person: owner, client: ownerClient } = await signedInPerson(context.test, guid, 'owner');
    const { person: admin, client: adminClient } = await signedInPerson(context.test, guid, 'admin');
    const viewer = await addPerson(context.test, guid, 'viewer');

    expect((await adminClient.put(`/v1/members/${viewer.id}`, { role: 'developer' })).body.role).toBe(
      'developer',
    );
    const promote = await adminClient.put(`/v1/members/${viewer.id}`, { role: 'owner' });
    expect(promote.status).toBe(403);
    expect(promote.body.error.code).toBe('forbidden');
    expect((await adminClient.delete(`/v1/members/${owner.id}`)).status).toBe(403);
    expect((await adminClient.post('/v1/members', { email: 'x@example.com', role: 'owner' })).status).toBe(
      403,
    );

    const demoteLast = await ownerClient.put(`/v1/members/${owner.id}`, { role: 'admin' });
    expect(demoteLast.status).toBe(409);
    expect((await ownerClient.delete(`/v1/members/${owner.id}`)).status).toBe(409);
    expect((await ownerClient.put(`/v1/members/${admin.id}`, { role: 'owner' })).status).toBe(200);
    expect((await ownerClient.put(`/v1/members/${owner.id}`, { role: 'admin' })).status).toBe(200);
    expect((await adminClient.get('/v1/me')).body.role).toBe('owner');
  });

  it('ends a removed member’s sessions and keys at once', async () => {
    const { client: admin } = await signedInPerson(context.test, workspaceGuid(), 'admin');
    const { person, client } = await signedInPerson(context.test, workspaceGuid(), 'developer');
    const key = await client.post('/v1/api_keys', { name: 'ci', role: 'runner' });
    const keyClient = clientFor(context.test.app, key.body.api_key, workspaceGuid());
    expect((await keyClient.get('/v1/me')).status).toBe(200);
    expect((await admin.delete(`/v1/members/${person.id}`)).status).toBe(200);
    expect((await keyClient.get('/v1/me')).status).toBe(401);
    expect((await client.get('/v1/me')).status).toBe(401);
  });

  it('resets a password by an admin-issued single-use link', async () => {
    const { client: admin } = await signedInPerson(context.test, workspaceGuid(), 'admin');
    const person = await addPerson(context.test, workspaceGuid(), 'viewer');
    const issued = await admin.post(`/v1/members/${person.id}/password_reset`, {});
    expect(issued.status).toBe(201);
    const token = new URL(issued.body.reset_url).searchParams.get('token')!;
    const reset = await request(
      context.test.app,
      'POST',
      '/console/v1/password_reset',
      { token, password: 'a brand new password' },
      sameOrigin,
    );
    expect(reset.status).toBe(200);
    const reused = await request(
      context.test.app,
      'POST',
      '/console/v1/password_reset',
      { token, password: 'yet another password' },
      sameOrigin,
    );
    expect(reused.status).toBe(404);
    expect((await signIn(context.test, person.email, 'a brand new password')).response.status).toBe(201);
  });
});

describe('several workspaces', () => {
  it('moves a person’s session to another of their workspaces, and nowhere else', async () => {
    const { person, cookie, client } = await signedInPerson(context.test, workspaceGuid(), 'viewer');
    const second = (await context.test.app.services.workspaces.createWorkspace('second')).workspace;
    const foreign = (await context.test.app.services.workspaces.createWorkspace('foreign')).workspace;
    await context.test.app.services.accounts.addMember(second.id, person.email, 'developer');
    const listed = await client.get('/v1/me/workspaces');
    expect(listed.body.map((each: { guid: string }) => each.guid).sort()).toEqual(
      [workspaceGuid(), second.id].sort(),
    );
    const refused = await request(
      context.test.app,
      'POST',
      '/console/v1/session/workspace',
      { workspace: foreign.id },
      { cookie, ...sameOrigin },
    );
    expect(refused.status).toBe(404);
    const moved = await request(
      context.test.app,
      'POST',
      '/console/v1/session/workspace',
      { workspace: second.id },
      { cookie, ...sameOrigin },
    );
    expect(moved.body).toMatchObject({ workspace: { guid: second.id }, role: 'developer' });
    const me = await client.get('/v1/me');
    expect(me.body).toMatchObject({ workspace: { guid: second.id }, role: 'developer' });
  });
});

describe('API keys that belong to people', () => {
  it('makes keys up to the maker’s role, lists them with their creator, and lets a runner run only', async () => {
    const { person, client } = await signedInPerson(context.test, workspaceGuid(), 'developer');
    expect((await client.post('/v1/api_keys', { name: 'too much', role: 'admin' })).status).toBe(403);
    const runner = await client.post('/v1/api_keys', { name: 'production app', role: 'runner' });
    expect(runner.status).toBe(201);
    expect(runner.body).toMatchObject({
      name: 'production app',
      role: 'runner',
      created_by: { guid: person.id, email: person.email },
      api_key: expect.stringMatching(/^lec_/),
      last_used_at: null,
    });
    const action = await createAction(context.client);
    const app = clientFor(context.test.app, runner.body.api_key, workspaceGuid());
    const run = await app.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'runner' } });
    expect(run.status).toBe(200);
    expect((await app.get(`/v1/data/${run.body.data_guid}`)).status).toBe(200);
    expect(
      (await app.post(`/v1/feedback/${run.body.data_guid}`, { type: 'rating', value: 'positive' })).status,
    ).toBe(201);
    expect((await app.get(`/v1/actions/${action.guid}`)).status).toBe(200);
    const refused = await app.get('/v1/apps');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await app.post('/v1/apps', { name: 'no' })).status).toBe(403);

    const listed = await client.get('/v1/api_keys');
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({ guid: runner.body.guid, last_used_at: expect.any(String) });
    expect(JSON.stringify(listed.body)).not.toContain(runner.body.api_key);
  });

  it('refuses keys to a viewer, and lets only the creator or an admin revoke one', async () => {
    const { client: viewer } = await signedInPerson(context.test, workspaceGuid(), 'viewer');
    expect((await viewer.post('/v1/api_keys', { name: 'nope' })).status).toBe(403);
    const { client: maker } = await signedInPerson(context.test, workspaceGuid(), 'developer');
    const { client: other } = await signedInPerson(context.test, workspaceGuid(), 'developer');
    const key = await maker.post('/v1/api_keys', { name: 'mine' });
    expect(key.body.role).toBe('developer');
    expect((await other.delete(`/v1/api_keys/${key.body.guid}`)).status).toBe(403);
    expect((await other.get('/v1/api_keys')).body.data).toHaveLength(0);
    const { client: admin } = await signedInPerson(context.test, workspaceGuid(), 'admin');
    expect((await admin.get('/v1/api_keys')).body.data.map((each: { guid: string }) => each.guid)).toContain(
      key.body.guid,
    );
    const revoked = await admin.delete(`/v1/api_keys/${key.body.guid}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    expect(
      (await clientFor(context.test.app, key.body.api_key, workspaceGuid()).get('/v1/apps')).status,
    ).toBe(401);
  });

  it('describes a creator-less key as an admin key with no user', async () => {
    const me = await context.client.get('/v1/me');
    expect(me.body).toMatchObject({
      principal: 'key',
      role: 'admin',
      user: null,
      key: { guid: expect.any(String) },
    });
  });

  it('records the person as the creator of what they make', async () => {
    const { person, client } = await signedInPerson(context.test, workspaceGuid(), 'developer');
    const app = await createApp(client);
    const workflow = await client.post('/v1/workflows', { name: 'made by a person', app });
    expect(workflow.body.created_by_id).toBe(person.id);
    const skill = await client.post('/v1/skills', { name: 'calc', type: 'calculator' });
    expect(skill.body.created_by_id).toBe(person.id);
    const action = await createAction(client, { app });
    await client.put(`/v1/actions/${action.guid}`, { prompt: 'Second {{name}}' });
    const versions = await client.get(`/v1/actions/${action.guid}/versions`);
    expect(versions.body.data.map((version: { saved_by_id: string }) => version.saved_by_id)).toEqual([
      person.id,
      person.id,
    ]);
  });
});

describe('several nodes', () => {
  it.runIf(process.env.REDIS_URL)('share sign-in failures (counted in Redis) and sessions', async () => {
    const other = await startTestApp(ownAddressPerSignIn);
    try {
      const person = await addPerson(context.test, workspaceGuid(), 'developer');
      const from = { 'x-forwarded-for': uniqueAddress() };
      for (const node of [
        context.test,
        other,
        context.test,
        other,
        context.test,
        other,
        context.test,
        other,
        context.test,
        other,
      ])
        expect((await signIn(node, person.email, 'a wrong password here', from)).response.status).toBe(401);
      expect((await signIn(other, person.email, person.password, from)).response.status).toBe(429);
      expect((await signIn(context.test, person.email, person.password, from)).response.status).toBe(429);

      // That address is now limited; another person signs in on one node and is known on the other.
      const second = await addPerson(context.test, workspaceGuid(), 'viewer');
      const { cookie } = await signIn(context.test, second.email, second.password);
      const onOther = await cookieClient(other, cookie!, workspaceGuid()).get('/v1/me');
      expect(onOther.status).toBe(200);
      expect(onOther.body.user.guid).toBe(second.id);
    } finally {
      await other.close();
    }
  });
});

describe('the same address made twice at once', () => {
  it('makes one person and refuses the other with 409 (nodes starting together make the first owner so)', async () => {
    const email = `twice-${randomUUID()}@example.com`;
    const attempts = await Promise.allSettled([
      context.test.app.services.accounts.createPerson({ email, password: testPassword }),
      context.test.app.services.accounts.createPerson({ email, password: testPassword }),
    ]);
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refusal = attempts.find((attempt) => attempt.status === 'rejected') as PromiseRejectedResult;
    expect(refusal.reason).toMatchObject({ status: 409, message: 'A user with this e-mail exists' });
  });
});
