import { randomUUID } from 'node:crypto';
import type { MemberRole } from '../../src/core/roles.js';
import { type Client, clientOver, request, type TestApp } from './test-app.js';

// People in tests: made through the services (as the admin API and the CLI make them), signed in
// through the console's real sign-in route, and then calling the API with their session cookie.

export const host = 'lectern.test';
/** What a browser on the console's own origin sends with a request that changes state. */
export const sameOrigin = { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' };

export const testPassword = 'correct horse battery staple';

export type Person = { id: string; email: string; password: string };

/** A new person, a member of the workspace with `role`, with a password. */
export async function addPerson(test: TestApp, workspaceId: string, role: MemberRole): Promise<Person> {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  const user = await test.app.services.accounts.createPerson({ email, password: testPassword, name: role });
  await test.app.services.accounts.addMember(workspaceId, email, role);
  return { id: user.id, email, password: testPassword };
}

/**
 * Sign-in failures are counted per client address: with this in the app's environment, each test
 * sign-in comes from an address of its own (`X-Forwarded-For` from the loopback proxy) unless it names one.
 */
export const ownAddressPerSignIn = { LECTERN_TRUST_PROXY: 'loopback' };
/** An address no other sign-in uses, in this run or an earlier one (Redis keeps counts 15 minutes). */
export const uniqueAddress = () => `2001:db8::${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}`;

/** The session cookie (`lectern_session=…`) of a sign-in, or the failed answer. */
export async function signIn(
  test: TestApp,
  email: string,
  password: string,
  headers: Record<string, string> = {},
) {
  const response = await request(
    test.app,
    'POST',
    '/console/v1/session',
    { email, password },
    { ...sameOrigin, 'x-forwarded-for': uniqueAddress(), ...headers },
  );
  const setCookie = String(response.headers['set-cookie'] ?? '');
  const token = /^lectern_session=([^;]*)/.exec(setCookie)?.[1];
  return { response, cookie: token ? `lectern_session=${token}` : undefined };
}

/** A client that calls the API as a signed-in person (the console's cookie, from its own origin). */
export function cookieClient(test: TestApp, cookie: string, workspaceGuid: string): Client {
  const send = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
    request(test.app, method, url, body, { cookie, ...sameOrigin, ...headers });
  return clientOver(send, '', workspaceGuid);
}

/** A member of the workspace with `role`, signed in. */
export async function signedInPerson(test: TestApp, workspaceGuid: string, role: MemberRole) {
  const person = await addPerson(test, workspaceGuid, role);
  const { cookie, response } = await signIn(test, person.email, person.password);
  if (!cookie) throw new Error(`sign-in failed: ${JSON.stringify(response.body)}`);
  return { person, cookie, client: cookieClient(test, cookie, workspaceGuid) };
}
