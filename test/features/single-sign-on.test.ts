import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Account,
  clientId,
  clientSecret,
  type IdentityProvider,
  loginAt,
  startIdentityProvider,
} from '../helpers/identity-provider.js';
import { cookieClient } from '../helpers/people.js';
import { request, useTestWorkspace } from '../helpers/test-app.js';

// Single sign-on against a real OpenID provider in this process: authorization code with PKCE, state
// and nonce; a first sign-in provisioned with the default role, a role from the provider's claim,
// unverified addresses and other domains refused, and a flow that did not start here refused.
const accounts: Record<string, Account> = {
  ada: { email: 'ada@example.com', emailVerified: true, name: 'Ada' },
  grace: {
    email: 'grace@example.com',
    emailVerified: true,
    name: 'Grace',
    groups: ['staff', 'lectern:admin'],
  },
  mallory: { email: 'mallory@example.com', emailVerified: false, name: 'Mallory' },
  eve: { email: 'eve@elsewhere.org', emailVerified: true, name: 'Eve' },
  // An address with two @ whose last part is an allowed domain: still not an address of it.
  smuggler: { email: 'mallory@evil.net@example.com', emailVerified: true, name: 'Smuggler' },
};
let provider: IdentityProvider;

beforeAll(async () => {
  provider = await startIdentityProvider(accounts, 'http://lectern.test/console/v1/oidc/callback');
});
afterAll(() => provider.close());

const context = useTestWorkspace(() => ({
  LECTERN_OIDC_ISSUER: provider.issuer,
  LECTERN_OIDC_CLIENT_ID: clientId,
  LECTERN_OIDC_CLIENT_SECRET: clientSecret,
  LECTERN_OIDC_DEFAULT_ROLE: 'viewer',
  LECTERN_OIDC_ROLE_CLAIM: 'groups',
  LECTERN_OIDC_ALLOWED_DOMAINS: 'example.com',
}));

/** Single sign-on provisions in workspace `default` (on a shared PostgreSQL, perhaps another file's). */
beforeAll(async () => {
  const { workspaces } = context.test.app.services;
  await workspaces.findWorkspace('default').catch(() => workspaces.createWorkspace('default'));
});

/** Starts at Lectern, logs in at the provider as `account`, and brings the callback back to Lectern. */
async function signInAs(account: string) {
  const start = await request(context.test.app, 'GET', '/console/v1/oidc/start');
  expect(start.status).toBe(302);
  const authorization = new URL(String(start.headers.location));
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('state')).toBeTruthy();
  expect(authorization.searchParams.get('nonce')).toBeTruthy();
  const flow = /^(lectern_oidc=[^;]+)/.exec(String(start.headers['set-cookie']))![1]!;
  const callback = new URL(await loginAt(authorization.href, account));
  const back = await request(context.test.app, 'GET', `${callback.pathname}${callback.search}`, undefined, {
    cookie: flow,
  });
  const session = /lectern_session=([^;]+)/.exec(String(back.headers['set-cookie']))?.[1];
  return { back, cookie: session ? `lectern_session=${session}` : undefined, callback };
}

describe('single sign-on', () => {
  it('offers SSO on the sign-in page', async () => {
    const options = await request(context.test.app, 'GET', '/console/v1/sign_in_options');
    expect(options.body).toEqual({ password: true, sso: true, api_key: true });
  });

  it('signs a first-time person in with the default role, their name and a verified address', async () => {
    const { back, cookie } = await signInAs('ada');
    expect(back.status).toBe(302);
    expect(back.headers.location).toBe('/');
    expect(cookie).toBeDefined();
    const me = await cookieClient(context.test, cookie!, '').get('/v1/me');
    expect(me.body).toMatchObject({
      principal: 'user',
      role: 'viewer',
      user: { email: 'ada@example.com', name: 'Ada' },
    });
  });

  it('takes the role from the provider’s claim', async () => {
    const { cookie } = await signInAs('grace');
    const me = await cookieClient(context.test, cookie!, '').get('/v1/me');
    expect(me.body.role).toBe('admin');
  });

  it('refuses an unverified address and an address of another domain', async () => {
    const unverified = await signInAs('mallory');
    expect(unverified.cookie).toBeUndefined();
    expect(decodeURIComponent(String(unverified.back.headers.location))).toMatch(/not verified/);
    const foreign = await signInAs('eve');
    expect(foreign.cookie).toBeUndefined();
    expect(decodeURIComponent(String(foreign.back.headers.location))).toMatch(
      /elsewhere\.org may not sign in/,
    );
    const smuggled = await signInAs('smuggler');
    expect(smuggled.cookie).toBeUndefined();
    expect(decodeURIComponent(String(smuggled.back.headers.location))).toMatch(/no valid e-mail address/);
  });

  it('refuses a callback without the flow that started it (a forged or replayed redirect)', async () => {
    const { callback } = await signInAs('ada');
    const replayed = await request(context.test.app, 'GET', `${callback.pathname}${callback.search}`);
    expect(replayed.status).toBe(302);
    expect(String(replayed.headers['set-cookie'])).not.toContain('lectern_session=lcs_');
    expect(decodeURIComponent(String(replayed.headers.location))).toMatch(/sign in again/);
  });
});
