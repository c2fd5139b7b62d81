import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { request, startTestApp, useTestWorkspace } from '../helpers/test-app.js';

// The console's sign-in: a workspace API key exchanged once for an HttpOnly session cookie, which
// then authenticates /v1 like the key; state-changing cookie requests must come from this origin.
// Sign-in throttling has tests of its own (test/security/console-sign-in-abuse.test.ts).
const context = useTestWorkspace({ LECTERN_CONSOLE_SIGN_INS_PER_MINUTE: '1000' });
const host = 'lectern.test';
const sameOrigin = { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' };

async function signIn(apiKey = context.client.apiKey) {
  const response = await request(
    context.test.app,
    'POST',
    '/console/v1/session',
    { api_key: apiKey },
    sameOrigin,
  );
  const setCookie = String(response.headers['set-cookie'] ?? '');
  const cookie = /^lectern_session=([^;]*)/.exec(setCookie)?.[1];
  return { response, setCookie, cookie: `lectern_session=${cookie}` };
}

const withCookie = (cookie: string, headers: Record<string, string> = {}) => ({ cookie, host, ...headers });

describe('console sign-in', () => {
  it('exchanges an API key for an HttpOnly, SameSite=Strict session cookie that never holds the key', async () => {
    const { response, setCookie, cookie } = await signIn();
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      workspace: { guid: context.client.workspaceGuid, name: expect.any(String) },
      // A key from before people existed: admin, with no creator.
      role: 'admin',
      user: null,
    });
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Max-Age=604800/);
    // Plain HTTP here: a Secure cookie would never come back.
    expect(setCookie).not.toMatch(/Secure/);
    expect(setCookie).not.toContain(context.client.apiKey);
    expect(JSON.stringify(response.body)).not.toContain(context.client.apiKey);
    const stored = await context.test.platform.database.database.execute(
      sql`SELECT token_hash FROM console_sessions WHERE workspace_id = ${context.client.workspaceGuid}`,
    );
    const hashes = JSON.stringify(stored);
    expect(hashes).not.toContain(cookie.split('=')[1]!);
    expect(hashes).not.toContain(context.client.apiKey);
    const current = await request(
      context.test.app,
      'GET',
      '/console/v1/session',
      undefined,
      withCookie(cookie),
    );
    expect(current.body.workspace.guid).toBe(context.client.workspaceGuid);
    // Trace-level logs of both requests hold neither the key nor the session token.
    const logs = context.test.logs.join('');
    expect(logs).toContain('/console/v1/session');
    expect(logs).not.toContain(context.client.apiKey);
    expect(logs).not.toContain(cookie.split('=')[1]!);
  });

  it('refuses an unknown key with 401 and sets no cookie, and names a missing key with 400', async () => {
    const wrong = await signIn('lec_not-a-key-of-this-instance-000000000000000');
    expect(wrong.response.status).toBe(401);
    expect(wrong.response.headers['set-cookie']).toBeUndefined();
    const missing = await request(context.test.app, 'POST', '/console/v1/session', {}, sameOrigin);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('api_key');
  });

  it('authenticates /v1 with the cookie: reads, and writes from the same origin', async () => {
    const { cookie } = await signIn();
    const listed = await request(context.test.app, 'GET', '/v1/apps', undefined, withCookie(cookie));
    expect(listed.status).toBe(200);
    const created = await request(
      context.test.app,
      'POST',
      '/v1/apps',
      { name: 'from the console' },
      {
        ...withCookie(cookie),
        origin: `http://${host}`,
        'sec-fetch-site': 'same-origin',
      },
    );
    expect(created.status).toBe(201);
    const seen = await context.client.get(`/v1/apps/${created.body.guid}`);
    expect(seen.body.name).toBe('from the console');
  });

  it('refuses a cross-site form post and a request from a foreign origin that carry the cookie', async () => {
    const { cookie } = await signIn();
    const formPost = await context.test.app.inject({
      method: 'POST',
      url: '/v1/apps',
      headers: {
        ...withCookie(cookie),
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'cross-site',
        origin: 'https://evil.example',
      },
      payload: 'name=forged',
    });
    expect(formPost.statusCode).toBe(403);
    expect(JSON.parse(formPost.body).error.code).toBe('cross_site_request');
    const foreignOrigin = await request(
      context.test.app,
      'POST',
      '/v1/apps',
      { name: 'forged' },
      {
        ...withCookie(cookie),
        origin: 'https://evil.example',
      },
    );
    expect(foreignOrigin.status).toBe(403);
    const sameSite = await request(context.test.app, 'DELETE', '/console/v1/session', undefined, {
      ...withCookie(cookie),
      'sec-fetch-site': 'same-site',
    });
    expect(sameSite.status).toBe(403);
    // Only the configured public origin (LECTERN_BASE_URL, http://lectern.test) is this service: the
    // same host over another scheme or port is not, whatever Host the request names.
    for (const [origin, status] of [
      ['http://lectern.test', 201],
      [`https://${host}`, 403],
      [`http://${host}:8080`, 403],
    ] as const) {
      const proxied = await request(
        context.test.app,
        'POST',
        '/v1/apps',
        { name: 'via proxy' },
        {
          ...withCookie(cookie),
          host: new URL(origin).host,
          origin,
          'sec-fetch-site': 'same-origin',
        },
      );
      expect(proxied.status, origin).toBe(status);
    }
    // A forged sign-in (login CSRF) is refused too.
    const forgedSignIn = await request(
      context.test.app,
      'POST',
      '/console/v1/session',
      {
        api_key: context.client.apiKey,
      },
      { host, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(forgedSignIn.status).toBe(403);
    const apps = await context.client.get('/v1/apps');
    expect(apps.body.data.map((app: { name: string }) => app.name)).not.toContain('forged');
  });

  it('leaves Bearer API calls as they were, whatever Origin a browser adds', async () => {
    const created = await request(
      context.test.app,
      'POST',
      '/v1/apps',
      { name: 'by key' },
      {
        authorization: `Bearer ${context.client.apiKey}`,
        origin: 'https://another-app.example',
        'sec-fetch-site': 'cross-site',
      },
    );
    expect(created.status).toBe(201);
    const missing = await request(context.test.app, 'GET', '/v1/apps');
    expect(missing.status).toBe(401);
    expect(missing.body.message).toBe('Missing Authorization: Bearer API key');
  });

  it('ends the session on sign-out: the cookie is cleared and no longer authenticates', async () => {
    const { cookie } = await signIn();
    const signedOut = await request(context.test.app, 'DELETE', '/console/v1/session', undefined, {
      ...withCookie(cookie),
      origin: `http://${host}`,
    });
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers['set-cookie']).toEqual([
      'lectern_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0',
      'lectern_signed_in=; Path=/; SameSite=Strict; Max-Age=0',
    ]);
    const after = await request(context.test.app, 'GET', '/v1/apps', undefined, withCookie(cookie));
    expect(after.status).toBe(401);
    expect(after.body.message).toContain('sign in again');
  });

  it('restarts the idle clock on use, at most once a minute, and renews the cookie with it', async () => {
    const { cookie } = await signIn();
    const token = cookie.split('=')[1]!;
    const fresh = await request(context.test.app, 'GET', '/v1/apps', undefined, withCookie(cookie));
    expect(fresh.headers['set-cookie']).toBeUndefined();
    await context.test.platform.database.database.execute(
      sql`UPDATE console_sessions SET last_seen_at = now() - interval '2 minutes'
          WHERE workspace_id = ${context.client.workspaceGuid}`,
    );
    const renewed = await request(context.test.app, 'GET', '/v1/apps', undefined, withCookie(cookie));
    expect(renewed.status).toBe(200);
    // The token's cookie, and the marker that tells the console a session may exist (never the token).
    expect(renewed.headers['set-cookie']).toEqual([
      `lectern_session=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=604800`,
      'lectern_signed_in=1; Path=/; SameSite=Strict; Max-Age=604800',
    ]);
  });

  it('ends a session idle past its time, and every session of a revoked key', async () => {
    const idle = await signIn();
    await context.test.platform.database.database.execute(
      sql`UPDATE console_sessions SET last_seen_at = now() - interval '8 days'
          WHERE workspace_id = ${context.client.workspaceGuid}`,
    );
    expect(
      (await request(context.test.app, 'GET', '/v1/apps', undefined, withCookie(idle.cookie))).status,
    ).toBe(401);

    const workspace = await context.test.app.services.workspaces.createWorkspace('revoked later');
    const live = await signIn(workspace.apiKey);
    expect(
      (await request(context.test.app, 'GET', '/v1/apps', undefined, withCookie(live.cookie))).status,
    ).toBe(200);
    const {
      rows: [key],
    } = await context.test.app.services.workspaces.listApiKeys(workspace.workspace.id, { skip: 0, limit: 1 });
    await context.test.app.services.workspaces.revokeApiKey(key!.id);
    expect(
      (await request(context.test.app, 'GET', '/v1/apps', undefined, withCookie(live.cookie))).status,
    ).toBe(401);
  });
});

it('marks the cookie Secure when the service is reached over HTTPS, and honours the idle setting', async () => {
  const test = await startTestApp({
    LECTERN_BASE_URL: 'https://prompts.example.com',
    LECTERN_CONSOLE_SESSION_IDLE_HOURS: '2',
  });
  try {
    const { apiKey } = await test.app.services.workspaces.createWorkspace('https');
    const response = await test.app.inject({
      method: 'POST',
      url: '/console/v1/session',
      headers: { 'content-type': 'application/json', host },
      payload: JSON.stringify({ api_key: apiKey }),
    });
    expect(response.statusCode).toBe(201);
    expect(String(response.headers['set-cookie'])).toMatch(/; Max-Age=7200; Secure$/);
  } finally {
    await test.close();
  }
});

it('without LECTERN_BASE_URL accepts the loopback origins of the port it serves on, and no other', async () => {
  const test = await startTestApp({ LECTERN_BASE_URL: '', LECTERN_CONSOLE_SIGN_INS_PER_MINUTE: '1000' });
  try {
    const { apiKey } = await test.app.services.workspaces.createWorkspace('laptop');
    const address = await test.app.listen({ port: 0, host: '127.0.0.1' });
    const port = new URL(address).port;
    const signInFrom = async (origin: string) =>
      (
        await fetch(`${address}/console/v1/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin },
          body: JSON.stringify({ api_key: apiKey }),
        })
      ).status;
    expect(await signInFrom(`http://127.0.0.1:${port}`)).toBe(201);
    expect(await signInFrom(`http://localhost:${port}`)).toBe(201);
    expect(await signInFrom(`http://127.0.0.1:${Number(port) + 1}`)).toBe(403);
    expect(await signInFrom(`https://127.0.0.1:${port}`)).toBe(403);
    expect(await signInFrom('http://evil.example')).toBe(403);
  } finally {
    await test.close();
  }
});
