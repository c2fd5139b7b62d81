import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleSessions } from '../../src/features/identity/console-sessions/tables.js';
import { request, startTestApp, type TestApp } from '../helpers/test-app.js';

// The probe's finding: 20,000 console sign-ins in 14 s grew the data directory 41 → 64 MB, and a
// workspace limit of 5 a minute did not apply. Sign-ins are now throttled per address and per key,
// sessions are capped per key and swept, and they have an absolute lifetime.

const host = 'lectern.test';
const sameOrigin = { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' };
let test: TestApp;

beforeAll(async () => {
  test = await startTestApp({
    LECTERN_CONSOLE_SIGN_INS_PER_MINUTE: '3',
    LECTERN_CONSOLE_SESSIONS_PER_KEY: '2',
    LECTERN_CONSOLE_SESSION_MAX_HOURS: '720',
  });
});
afterAll(() => test.close());

/** A sign-in from `address` (the client's IP as the server sees it). */
async function signIn(app: TestApp, apiKey: string, address: string) {
  const response = await app.app.inject({
    method: 'POST',
    url: '/console/v1/session',
    remoteAddress: address,
    headers: { ...sameOrigin, 'content-type': 'application/json' },
    payload: JSON.stringify({ api_key: apiKey }),
  });
  const cookie = /^lectern_session=[^;]*/.exec(String(response.headers['set-cookie'] ?? ''))?.[0];
  return { status: response.statusCode, body: JSON.parse(response.body), headers: response.headers, cookie };
}

const appsWith = async (cookie: string | undefined) =>
  (await request(test.app, 'GET', '/v1/apps', undefined, { cookie: cookie ?? '', host })).status;

const uniqueAddress = () => `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

describe('console sign-in under abuse', () => {
  it('answers 429 with Retry-After past the attempts a minute from one address, whatever the key', async () => {
    const address = uniqueAddress();
    const attempts = [];
    for (let index = 0; index < 4; index++)
      attempts.push(await signIn(test, `lec_guess_${index}_${randomUUID()}`, address));
    expect(attempts.map((attempt) => attempt.status)).toEqual([401, 401, 401, 429]);
    const refused = attempts.at(-1)!;
    expect(refused.body.error.code).toBe('too_many_sign_ins');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Even the right key is refused from there for the rest of the minute: guesses cost the address.
    const { apiKey } = await test.app.services.workspaces.createWorkspace('throttled address');
    expect((await signIn(test, apiKey, address)).status).toBe(429);
    expect((await signIn(test, apiKey, uniqueAddress())).status).toBe(201);
  });

  it('answers 429 past the attempts a minute with one key, from however many addresses', async () => {
    const { apiKey } = await test.app.services.workspaces.createWorkspace('throttled key');
    const statuses = [];
    for (let index = 0; index < 4; index++)
      statuses.push((await signIn(test, apiKey, uniqueAddress())).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  it('keeps at most the newest sessions of a key: a new sign-in ends the oldest', async () => {
    const { apiKey } = await test.app.services.workspaces.createWorkspace('capped');
    const first = await signIn(test, apiKey, uniqueAddress());
    const second = await signIn(test, apiKey, uniqueAddress());
    expect(await appsWith(first.cookie)).toBe(200);
    const third = await signIn(test, apiKey, uniqueAddress());
    expect(await appsWith(first.cookie)).toBe(401);
    expect(await appsWith(second.cookie)).toBe(200);
    expect(await appsWith(third.cookie)).toBe(200);
  });

  it('ends a busy session at its absolute lifetime', async () => {
    const { apiKey, workspace } = await test.app.services.workspaces.createWorkspace('long lived');
    const session = await signIn(test, apiKey, uniqueAddress());
    expect(await appsWith(session.cookie)).toBe(200);
    await test.platform.database.database.execute(
      sql`UPDATE console_sessions SET created_at = now() - interval '31 days', last_seen_at = now()
          WHERE workspace_id = ${workspace.id}`,
    );
    expect(await appsWith(session.cookie)).toBe(401);
  });

  it('signs out everywhere: every session of the same key ends, another key’s stays', async () => {
    const { apiKey, workspace } = await test.app.services.workspaces.createWorkspace('everywhere');
    const laptop = await signIn(test, apiKey, uniqueAddress());
    const phone = await signIn(test, apiKey, uniqueAddress());
    const other = await test.app.services.workspaces.createApiKey(workspace.id);
    const colleague = await signIn(test, other.apiKey, uniqueAddress());
    const everywhere = await request(test.app, 'DELETE', '/console/v1/sessions', undefined, {
      ...sameOrigin,
      cookie: phone.cookie!,
    });
    expect(everywhere.status).toBe(200);
    expect(everywhere.body).toEqual({ signed_out: true, sessions_ended: 2 });
    expect(String(everywhere.headers['set-cookie'])).toMatch(/Max-Age=0/);
    expect(await appsWith(laptop.cookie)).toBe(401);
    expect(await appsWith(phone.cookie)).toBe(401);
    expect(await appsWith(colleague.cookie)).toBe(200);
    // Signed out already: nothing to end.
    const again = await request(test.app, 'DELETE', '/console/v1/sessions', undefined, {
      ...sameOrigin,
      cookie: phone.cookie!,
    });
    expect(again.status).toBe(401);
  });
});

it('deletes ended sessions (signed out, idle, past their lifetime) when sign-ins come, and keeps live ones', async () => {
  // A service of its own: the sweep runs at most once a minute, with the first sign-in.
  const fresh = await startTestApp({ LECTERN_CONSOLE_SIGN_INS_PER_MINUTE: '100' });
  try {
    const { apiKey, workspace } = await fresh.app.services.workspaces.createWorkspace('swept');
    const {
      rows: [key],
    } = await fresh.app.services.workspaces.listApiKeys(workspace.id, { skip: 0, limit: 1 });
    const ended = (fields: Partial<typeof consoleSessions.$inferInsert>) => ({
      id: randomUUID(),
      workspaceId: workspace.id,
      apiKeyId: key!.id,
      tokenHash: randomUUID(),
      ...fields,
    });
    await fresh.platform.database.database
      .insert(consoleSessions)
      .values([
        ended({ revokedAt: new Date() }),
        ended({ lastSeenAt: new Date(Date.now() - 8 * 24 * 3_600_000) }),
        ended({ createdAt: new Date(Date.now() - 31 * 24 * 3_600_000) }),
        ended({}),
      ]);
    const session = await signIn(fresh, apiKey, uniqueAddress());
    expect(session.status).toBe(201);
    const count = async () =>
      (
        await fresh.platform.database.database
          .select({ id: consoleSessions.id })
          .from(consoleSessions)
          .where(eq(consoleSessions.workspaceId, workspace.id))
      ).length;
    // The untouched row and the new sign-in's remain.
    await expect.poll(count).toBe(2);
  } finally {
    await fresh.close();
  }
});

it.runIf(process.env.REDIS_URL)('counts sign-in attempts across nodes sharing Redis', async () => {
  const other = await startTestApp({ LECTERN_CONSOLE_SIGN_INS_PER_MINUTE: '3' });
  try {
    const address = uniqueAddress();
    const statuses = [];
    for (const node of [test, other, test, other])
      statuses.push((await signIn(node, `lec_${randomUUID()}`, address)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  } finally {
    await other.close();
  }
});
