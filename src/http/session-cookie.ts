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
 * The `Set-Cookie` value for a session: HttpOnly (no script reads it), SameSite=Strict (no other
 * site's page sends it), Secure when the service is reached over HTTPS. `maxAgeMs` 0 clears it.
 */
export function sessionCookie(token: string, options: { maxAgeMs: number; secure: boolean }): string {
  const attributes = [
    `${sessionCookieName}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${Math.floor(options.maxAgeMs / 1000)}`,
  ];
  if (options.secure) attributes.push('Secure');
  return attributes.join('; ');
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The `host[:port]` of an origin, or undefined for a malformed one (`null` from a sandboxed page). */
function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/**
 * CSRF defence for cookie-authenticated requests that change state (SameSite=Strict is the first):
 * a browser that says the request comes from another site (`Sec-Fetch-Site`), or names another
 * origin (`Origin`) than the host it talks to or the service's public URL (`publicOrigin`, which a
 * TLS-terminating proxy in front makes https while the request arrives as http), is refused.
 * Requests without either header come from no browser page, and carry no cookie a page could have
 * made them send.
 */
export function assertSameOrigin(request: FastifyRequest, publicOrigin: string): void {
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
  if (origin !== undefined && origin !== publicOrigin && hostOf(origin) !== request.headers.host) {
    throw new AppError(
      403,
      'cross_site_request',
      `Refused: origin ${origin} may not use the console sign-in`,
    );
  }
}
