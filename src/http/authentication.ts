import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { creatorIdOf, type Principal } from '../core/roles.js';
import type { AuthenticatedWorkspace, SignedRequest } from '../core/signed-request.js';
import { NotFoundError, UnauthorizedError } from '../errors.js';
import { assertSameOrigin, sessionCookies, sessionTokenOf } from './session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    workspace?: AuthenticatedWorkspace;
    principal?: Principal;
    /**
     * Asks afresh, past every cache, whether the request's key or console session still signs in:
     * a long-lived answer (an event stream) ends once it does not.
     */
    stillSignedIn?: () => Promise<boolean>;
  }
}

/** The token of `Authorization: Bearer <token>`; no other scheme or header authenticates. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** What authentication asks of the workspaces feature: the request a key (or a key's id) signs. */
export type KeyCheck = {
  authenticate(apiKey: string): Promise<SignedRequest | undefined>;
  authenticateKeyId(keyId: string): Promise<SignedRequest | undefined>;
};

/**
 * What it asks of the console's sessions: the request a session token signs, and whether its idle
 * clock was just reset (the cookie is then sent again).
 */
export type SessionTokenCheck = {
  authenticate(token: string): Promise<(SignedRequest & { renewed: boolean }) | undefined>;
  readonly idleMs: number;
};

/**
 * The console's sign-ins, whether their cookie must be Secure (the service is reached over HTTPS),
 * and the service's public origin (from LECTERN_BASE_URL), which its pages are served from:
 * undefined when LECTERN_BASE_URL is not set (session-cookie.ts says what is accepted then).
 */
export type ConsoleSignIns<Sessions extends SessionTokenCheck = SessionTokenCheck> = {
  sessions: Sessions;
  secureCookie: boolean;
  publicOrigin: string | undefined;
};

/**
 * Adds workspace authentication to every route of the (encapsulated) instance it is called on: an
 * API key (`Authorization: Bearer`), or else the console's session cookie, whose requests that
 * change state must come from the service's own origin.
 */
export function requireWorkspaceKey(
  app: FastifyInstance,
  workspaces: KeyCheck,
  signIns?: ConsoleSignIns,
): void {
  app.decorateRequest('workspace', undefined);
  app.decorateRequest('principal', undefined);
  app.decorateRequest('stillSignedIn', undefined);
  const sign = (request: FastifyRequest, signed: SignedRequest) => {
    request.workspace = signed.workspace;
    request.principal = signed.principal;
  };
  app.addHook('onRequest', async (request, reply) => {
    const token = bearerToken(request);
    const sessionToken = token === undefined && signIns ? sessionTokenOf(request) : undefined;
    if (sessionToken !== undefined && signIns) {
      assertSameOrigin(request, signIns.publicOrigin);
      const session = await signIns.sessions.authenticate(sessionToken);
      if (!session) throw new UnauthorizedError('The console sign-in has ended; sign in again');
      // The idle clock was reset: the browser keeps the cookie as long as the server keeps the session.
      if (session.renewed)
        reply.header(
          'set-cookie',
          sessionCookies(sessionToken, { maxAgeMs: signIns.sessions.idleMs, secure: signIns.secureCookie }),
        );
      sign(request, session);
      const sessions = signIns.sessions;
      request.stillSignedIn = async () => (await sessions.authenticate(sessionToken)) !== undefined;
      return;
    }
    if (!token) throw new UnauthorizedError('Missing Authorization: Bearer API key');
    const signed = await workspaces.authenticate(token);
    if (!signed) throw new UnauthorizedError('Invalid or revoked API key');
    sign(request, signed);
    const keyId = signed.principal.key!.id;
    request.stillSignedIn = async () => (await workspaces.authenticateKeyId(keyId)) !== undefined;
  });
}

/** Whether the request's credentials still sign in (true for a request that had none to check). */
export function stillSignedIn(request: FastifyRequest): Promise<boolean> {
  return request.stillSignedIn?.() ?? Promise.resolve(true);
}

/** The authenticated workspace of a request behind requireWorkspaceKey. */
export function workspaceOf(request: FastifyRequest): AuthenticatedWorkspace {
  if (!request.workspace) throw new UnauthorizedError();
  return request.workspace;
}

/**
 * The caller's workspace id when a `/workspace/:guid/...` path names it: a key reaches only its own
 * workspace, and any other GUID is 404, as for every resource.
 */
export function workspaceInPath(request: FastifyRequest<{ Params: { guid: string } }>): string {
  const caller = workspaceOf(request);
  if (request.params.guid !== caller.id) throw new NotFoundError('Workspace not found');
  return caller.id;
}

/** Who asks, for a request behind requireWorkspaceKey. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError();
  return request.principal;
}

/** The GUID a record the request creates names as its creator (docs/api.md#people-and-roles). */
export function creatorOf(request: FastifyRequest): string {
  return creatorIdOf(principalOf(request));
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** The instance admin token, compared in constant time. */
export function requireAdminToken(app: FastifyInstance, adminToken: string): void {
  const expected = digest(adminToken);
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (!token || !timingSafeEqual(digest(token), expected))
      throw new UnauthorizedError('Missing or invalid admin token');
  });
}
