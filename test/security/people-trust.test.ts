import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import {
  addPerson,
  cookieClient,
  ownAddressPerSignIn,
  type Person,
  sameOrigin,
  signedInPerson,
  signIn,
  testPassword,
  uniqueAddress,
} from '../helpers/people.js';
import { type Client, clientFor, request, type TestApp, useTestWorkspace } from '../helpers/test-app.js';

// Where people and credentials meet (docs/security.md#people-and-roles): a reset link is issued only
// for someone the issuer outranks in every workspace they belong to; every check of a typed password
// shares the sign-in limit; a password change, a removal or a deactivation ends what it should for
// good; invitations and reset links die with their issuer's right; and the attempts are recorded in
// the workspaces of the person they were made against.
const adminToken = 'admin-token-for-people-trust-0123456789';
const context = useTestWorkspace({ ...ownAddressPerSignIn, LECTERN_ADMIN_TOKEN: adminToken });

async function newWorkspaceGuid(test: TestApp): Promise<string> {
  return (await test.app.services.workspaces.createWorkspace(`trust-${randomUUID().slice(0, 8)}`)).workspace
    .id;
}

/** A person with a role in each of the given workspaces. */
async function personIn(test: TestApp, roles: [string, MemberRole][]): Promise<Person> {
  const [first, ...rest] = roles;
  const person = await addPerson(test, first![0], first![1]);
  for (const [workspaceId, role] of rest)
    await test.app.services.accounts.addMember(workspaceId, person.email, role);
  return person;
}

const issueReset = (client: Client, userId: string) =>
  client.post(`/v1/members/${userId}/password_reset`, {});

const fromOwnAddress = (address = uniqueAddress()) => ({ ...sameOrigin, 'x-forwarded-for': address });

async function auditRecords(client: Client, query: string) {
  const answer = await client.get(`/v1/audit_log?${query}`);
  expect(answer.status).toBe(200);
  return answer.body.data as any[];
}

describe('password reset links', () => {
  it('are refused for an owner, an equal, and oneself, by a cookie or by a key', async () => {
    const { test } = context;
    const workspace = await newWorkspaceGuid(test);
    const owner = await addPerson(test, workspace, 'owner');
    const otherAdmin = await addPerson(test, workspace, 'admin');
    const developer = await addPerson(test, workspace, 'developer');
    const { person: admin, client: adminClient } = await signedInPerson(test, workspace, 'admin');
    const creatorlessKey = (await test.app.services.workspaces.createApiKey(workspace)).apiKey;
    const keyClient = clientFor(test.app, creatorlessKey, workspace);
    const adminMadeKey = await adminClient.post('/v1/api_keys', { name: 'admin key', role: 'admin' });
    const adminKeyClient = clientFor(test.app, adminMadeKey.body.api_key, workspace);

    for (const issuer of [adminClient, keyClient, adminKeyClient]) {
      for (const target of [owner.id, otherAdmin.id, admin.id]) {
        const refused = await issueReset(issuer, target);
        expect(refused.status, target).toBe(403);
        expect(refused.body.message).toMatch(/only for a person you outrank in every workspace/);
      }
      expect((await issueReset(issuer, developer.id)).status).toBe(201);
    }
    // An owner resets an admin, never another owner.
    const { client: ownerClient } = await signedInPerson(test, workspace, 'owner');
    expect((await issueReset(ownerClient, otherAdmin.id)).status).toBe(201);
    expect((await issueReset(ownerClient, owner.id)).status).toBe(403);
  });

  it('are refused for a person who stands as high elsewhere, and the record names their workspaces', async () => {
    const { test } = context;
    const theirs = await newWorkspaceGuid(test);
    const shared = await newWorkspaceGuid(test);
    // An owner of one workspace who is only a viewer in another.
    const target = await personIn(test, [
      [theirs, 'owner'],
      [shared, 'viewer'],
    ]);
    const { client: sharedAdmin } = await signedInPerson(test, shared, 'admin');
    const { client: sharedOwner } = await signedInPerson(test, shared, 'owner');
    expect((await issueReset(sharedAdmin, target.id)).status).toBe(403);
    expect((await issueReset(sharedOwner, target.id)).status).toBe(403);
    // Nothing was issued: no link for the target exists.
    const links = await test.platform.database.database.execute(
      `SELECT count(*)::int AS links FROM single_use_tokens WHERE user_id = '${target.id}'` as never,
    );
    expect((links as any).rows[0].links).toBe(0);

    // A person who outranks the target in both workspaces may issue one.
    const viewer = await personIn(test, [
      [theirs, 'viewer'],
      [shared, 'developer'],
    ]);
    const outranking = await personIn(test, [
      [theirs, 'admin'],
      [shared, 'admin'],
    ]);
    const signedIn = await signIn(test, outranking.email, outranking.password);
    const outrankingClient = cookieClient(test, signedIn.cookie!, theirs);
    expect((await issueReset(sharedAdmin, viewer.id)).status).toBe(403);
    expect((await issueReset(outrankingClient, viewer.id)).status).toBe(201);
    const [record] = await auditRecords(
      outrankingClient,
      `action=${encodeURIComponent('POST /v1/members/{guid}/password_reset')}`,
    );
    expect(record.changes).toMatchObject({ user: viewer.id });
    expect([...record.changes.workspaces].sort()).toEqual([theirs, shared].sort());
  });

  it('are issued by the operator for anyone, owners included', async () => {
    const { test } = context;
    const workspace = await newWorkspaceGuid(test);
    const owner = await addPerson(test, workspace, 'owner');
    const issued = await request(
      test.app,
      'POST',
      `/admin/v1/users/${owner.id}/password_reset`,
      {},
      {
        authorization: `Bearer ${adminToken}`,
      },
    );
    expect(issued.status).toBe(201);
    const token = new URL(issued.body.reset_url).searchParams.get('token')!;
    const used = await request(
      test.app,
      'POST',
      '/console/v1/password_reset',
      { token, password: 'the operator reset this one' },
      fromOwnAddress(),
    );
    expect(used.status).toBe(200);
    // The used link is recorded in the owner's workspace, where its admins see it.
    const { client: otherOwner } = await signedInPerson(test, workspace, 'owner');
    const records = await auditRecords(
      otherOwner,
      `action=${encodeURIComponent('POST /console/v1/password_reset')}`,
    );
    expect(records).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ guid: owner.id }), status: 200 }),
    ]);
  });

  it('answers a forgotten-password request alike for any address, and sends nothing without mail', async () => {
    const { test } = context;
    const person = await addPerson(test, context.client.workspaceGuid, 'viewer');
    for (const email of [person.email, `nobody-${randomUUID()}@example.com`]) {
      const answer = await request(
        test.app,
        'POST',
        '/console/v1/password_reset/request',
        { email },
        fromOwnAddress(),
      );
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ status: 'success' });
    }
    const bad = await request(
      test.app,
      'POST',
      '/console/v1/password_reset/request',
      { email: 'no' },
      fromOwnAddress(),
    );
    expect(bad.status).toBe(400);
    // Ten requests for one address within 15 minutes, then 429: no mailbox is flooded.
    const email = `flooded-${randomUUID()}@example.com`;
    for (let attempt = 0; attempt < 10; attempt += 1)
      expect(
        (await request(test.app, 'POST', '/console/v1/password_reset/request', { email }, fromOwnAddress()))
          .status,
      ).toBe(202);
    const limited = await request(
      test.app,
      'POST',
      '/console/v1/password_reset/request',
      { email },
      fromOwnAddress(),
    );
    expect(limited.status).toBe(429);
  });
});

describe('every check of a typed password shares the sign-in limit', () => {
  it('limits guesses through an invitation for an existing account, with one message, each recorded', async () => {
    const { test } = context;
    const home = await newWorkspaceGuid(test);
    const existing = await addPerson(test, home, 'owner');
    const { client: admin } = await signedInPerson(test, context.client.workspaceGuid, 'admin');
    const invited = await admin.post('/v1/members', { email: existing.email, role: 'viewer' });
    const token = new URL(invited.body.invite_url).searchParams.get('token')!;
    const from = fromOwnAddress();
    const accept = (password: string) =>
      request(test.app, 'POST', '/console/v1/invitations/accept', { token, password }, from);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const wrong = await accept(`wrong guess number ${attempt}`);
      expect(wrong.status).toBe(401);
      expect(wrong.body.message).toBe('Wrong e-mail address or password');
    }
    const limited = await accept(existing.password);
    expect(limited.status).toBe(429);
    // Each failure is in the invited person's own workspace and in the inviting one.
    const { client: homeOwner } = await signedInPerson(test, home, 'owner');
    for (const reader of [homeOwner, admin]) {
      const records = await auditRecords(
        reader,
        `action=${encodeURIComponent('POST /console/v1/invitations/accept')}&actor=${existing.id}`,
      );
      expect(records.filter((record) => record.status === 401)).toHaveLength(10);
    }
    // Without a password the answer is the same whether or not the address has an account.
    const stranger = await admin.post('/v1/members', {
      email: `new-${randomUUID()}@example.com`,
      role: 'viewer',
    });
    for (const link of [invited.body.invite_url, stranger.body.invite_url]) {
      const answer = await request(
        test.app,
        'POST',
        '/console/v1/invitations/accept',
        { token: new URL(link).searchParams.get('token') },
        fromOwnAddress(),
      );
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('password: is required: sign in first, or give a password');
    }
  });

  it('limits guesses of the current password when changing it, each recorded', async () => {
    const { test } = context;
    const { person, cookie } = await signedInPerson(test, context.client.workspaceGuid, 'viewer');
    const from = uniqueAddress();
    const change = (current: string) =>
      request(
        test.app,
        'PUT',
        '/v1/me/password',
        { current_password: current, new_password: 'a long new password' },
        { cookie: cookie!, ...fromOwnAddress(from) },
      );
    for (let attempt = 0; attempt < 10; attempt += 1)
      expect((await change(`guess ${attempt}`)).status).toBe(401);
    expect((await change(person.password)).status).toBe(429);
    const records = await auditRecords(
      context.client,
      `action=${encodeURIComponent('PUT /v1/me/password')}&actor=${person.id}`,
    );
    expect(records.filter((record) => record.status === 401)).toHaveLength(10);
    expect(JSON.stringify(records)).not.toContain('guess');
  });

  it('refuses a password of spaces', async () => {
    const { test } = context;
    const refused = await test.app.services.accounts
      .createPerson({ email: `spaces-${randomUUID()}@example.com`, password: ' '.repeat(20) })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, field: 'password' });
    const { client } = await signedInPerson(test, context.client.workspaceGuid, 'viewer');
    const change = await client.put('/v1/me/password', {
      current_password: testPassword,
      new_password: `  ${' '.repeat(12)}\t `,
    });
    expect(change.status).toBe(400);
    expect(change.body.error.field).toBe('new_password');
  });
});

describe('what ends for good', () => {
  it('a password change ends the person’s other sessions and keeps the one that made it', async () => {
    const { test } = context;
    const { person, client: current } = await signedInPerson(test, context.client.workspaceGuid, 'viewer');
    const other = await signIn(test, person.email, person.password);
    const otherClient = cookieClient(test, other.cookie!, context.client.workspaceGuid);
    expect((await otherClient.get('/v1/me')).status).toBe(200);
    const changed = await current.put('/v1/me/password', {
      current_password: person.password,
      new_password: 'a different long password',
    });
    expect(changed.status).toBe(200);
    expect((await current.get('/v1/me')).status).toBe(200);
    expect((await otherClient.get('/v1/me')).status).toBe(401);
  });

  it('a reset ends every session of the person', async () => {
    const { test } = context;
    const { client: admin } = await signedInPerson(test, context.client.workspaceGuid, 'admin');
    const person = await addPerson(test, context.client.workspaceGuid, 'developer');
    const session = await signIn(test, person.email, person.password);
    const personClient = cookieClient(test, session.cookie!, context.client.workspaceGuid);
    const issued = await issueReset(admin, person.id);
    const token = new URL(issued.body.reset_url).searchParams.get('token')!;
    const reset = await request(
      test.app,
      'POST',
      '/console/v1/password_reset',
      { token, password: 'chosen after a reset' },
      fromOwnAddress(),
    );
    expect(reset.status).toBe(200);
    expect((await personClient.get('/v1/me')).status).toBe(401);
  });

  it('re-adding a removed member, or reactivating a person, brings back no key and no session', async () => {
    const { test } = context;
    const workspace = context.client.workspaceGuid;
    const { client: admin } = await signedInPerson(test, workspace, 'admin');
    for (const end of ['removal', 'deactivation'] as const) {
      const { person, client } = await signedInPerson(test, workspace, 'developer');
      const key = await client.post('/v1/api_keys', { name: 'ci', role: 'runner' });
      const keyClient = clientFor(test.app, key.body.api_key, workspace);
      expect((await keyClient.get('/v1/me')).status).toBe(200);
      if (end === 'removal') {
        expect((await admin.delete(`/v1/members/${person.id}`)).status).toBe(200);
        await test.app.services.accounts.addMember(workspace, person.email, 'developer');
      } else {
        await test.app.services.accounts.updatePerson(person.id, { active: false });
        await test.app.services.accounts.updatePerson(person.id, { active: true });
      }
      expect((await keyClient.get('/v1/me')).status, end).toBe(401);
      expect((await client.get('/v1/me')).status, end).toBe(401);
      const listed = await admin.get('/v1/api_keys');
      const stored = listed.body.data.find((each: any) => each.guid === key.body.guid);
      expect(stored.revoked_at, end).not.toBeNull();
      // They sign in afresh and make new keys.
      const again = await signIn(test, person.email, person.password);
      expect(again.response.status, end).toBe(201);
    }
  });

  it('invitations and reset links die with their issuer’s right to issue them', async () => {
    const { test } = context;
    const workspace = await newWorkspaceGuid(test);
    const { client: owner } = await signedInPerson(test, workspace, 'owner');
    for (const loss of ['demotion', 'removal'] as const) {
      const { person: issuer, client } = await signedInPerson(test, workspace, 'admin');
      const invited = await client.post('/v1/members', {
        email: `invitee-${randomUUID()}@example.com`,
        role: 'viewer',
      });
      expect(invited.status).toBe(201);
      const target = await addPerson(test, workspace, 'viewer');
      const issued = await issueReset(client, target.id);
      expect(issued.status).toBe(201);
      if (loss === 'demotion')
        expect((await owner.put(`/v1/members/${issuer.id}`, { role: 'developer' })).status).toBe(200);
      else expect((await owner.delete(`/v1/members/${issuer.id}`)).status).toBe(200);

      expect((await owner.get('/v1/invitations')).body.data.map((each: any) => each.guid)).not.toContain(
        invited.body.guid,
      );
      const accepted = await request(
        test.app,
        'POST',
        '/console/v1/invitations/accept',
        { token: new URL(invited.body.invite_url).searchParams.get('token'), password: testPassword },
        fromOwnAddress(),
      );
      expect(accepted.status, loss).toBe(404);
      const reset = await request(
        test.app,
        'POST',
        '/console/v1/password_reset',
        { token: new URL(issued.body.reset_url).searchParams.get('token'), password: 'not to be set at all' },
        fromOwnAddress(),
      );
      expect(reset.status, loss).toBe(404);
    }
    // An admin who stays an admin keeps theirs.
    const { client: staying } = await signedInPerson(test, workspace, 'admin');
    const kept = await staying.post('/v1/members', {
      email: `kept-${randomUUID()}@example.com`,
      role: 'viewer',
    });
    expect(
      (await owner.put(`/v1/members/${(await owner.get('/v1/me')).body.user.guid}`, { role: 'owner' }))
        .status,
    ).toBe(200);
    expect((await owner.get('/v1/invitations')).body.data.map((each: any) => each.guid)).toContain(
      kept.body.guid,
    );
  });
});
