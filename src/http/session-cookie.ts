import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

/** The console's sign-in cookie: the session token, never the API key. */
export const sessionCookieName = 'lectern_session';

/** The session token a request's `Cookie` header carries, if any. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const [name, ...value] = pair.trim().split('=');
    if (name === sessionCookieName) return value.join('=') || undefined;
  }
  return undefined;
}

/**
 * A cookie beside the session's that scripts may read and that says only "a session may exist" (never
 * its token): the console asks `GET /console/v1/session` only when it is there, so a browser that is
 * signed out does not log a refused request each time the console opens.
 */
export const signedInMarkerName = 'lectern_signed_in';

/**
 * The `Set-Cookie` values for a session: its token HttpOnly (no script reads it), SameSite=Strict (no
 * other site's page sends it), Secure when the service is reached over HTTPS; and the marker, with
 * the same lifetime. `maxAgeMs` 0 clears both.
 */
export function sessionCookies(token: string, options: { maxAgeMs: number; secure: boolean }): string[] {
  const common = ['Path=/', 'SameSite=Strict', `Max-Age=${Math.floor(options.maxAgeMs / 1000)}`];
  if (options.secure) common.push('Secure');
  const marker = options.maxAgeMs > 0 ? '1' : '';
  return [
    [`${sessionCookieName}=${token}`, 'Path=/', 'HttpOnly', ...common.slice(1)].join('; '),
    [`${signedInMarkerName}=${marker}`, ...common].join('; '),
  ];
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

const loopbackHosts = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * Whether `origin` is this service's: exactly the public origin (LECTERN_BASE_URL, scheme and port
 * included) when one is configured. Without one the service is a laptop's: the loopback addresses on
 * the port the request arrived at (http://127.0.0.1:4000, http://localhost:4000), which no page of
 * another origin can be. Never the `Host` header, which a client chooses.
 */
function isServiceOrigin(origin: string, request: FastifyRequest, publicOrigin: string | undefined) {
  if (publicOrigin !== undefined) return origin === publicOrigin;
  const port = request.socket?.localPort;
  return port !== undefined && loopbackHosts.some((host) => origin === `http://${host}:${port}`);
}

/**
 * CSRF defence for cookie-authenticated requests that change state (SameSite=Strict is the first):
 * a browser that says the request comes from another site (`Sec-Fetch-Site`), or names an origin
 * (`Origin`) that is not the service's (isServiceOrigin), is refused. Requests without either header
 * come from no browser page, and carry no cookie a page could have made them send.
 */
export function assertSameOrigin(request: FastifyRequest, publicOrigin: string | undefined): void {
  if (safeMethods.has(request.method)) return;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new AppError(
      403,
      'cross_site_request',
      `Refused: a ${site} request may not use the console sign-in`,
    );
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !isServiceOrigin(origin, request, publicOrigin)) {
    throw new AppError(
      403,
      'cross_site_request',
      `Refused: origin ${origin} may not use the console sign-in (set LECTERN_BASE_URL to the address the browser opens the console at)`,
    );
  }
}
