import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MemberRole } from '../../../core/roles.js';
import { AppError } from '../../../errors.js';
import type { ConsoleSignIns } from '../../../http/authentication.js';
import { recordConsoleEvent } from '../../../http/authorization.js';
import { sessionCookies } from '../../../http/session-cookie.js';
import type { AuditActor, AuditService } from '../audit/index.js';
import type { AccountService } from '../people/index.js';
import type { ConsoleSessionService } from './service.js';
import type { SingleSignOn } from './single-sign-on.js';

const flowCookie = 'lectern_oidc';
const callbackQuery = z.looseObject({
  code: z.string().max(4096).optional(),
  state: z.string().max(1024).optional(),
});

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = pair.trim().split('=');
    if (key === name) return value.join('=') || undefined;
  }
  return undefined;
}

/**
 * Single sign-on (docs/api.md#single-sign-on): `/console/v1/oidc/start` sends the browser to the
 * identity provider; its callback makes the console session and sends the browser to the console.
 * Mounted only when LECTERN_OIDC_ISSUER is set.
 */
export function singleSignOnRoutes(
  { sessions, secureCookie }: ConsoleSignIns<ConsoleSessionService>,
  dependencies: {
    sso: SingleSignOn;
    accounts: AccountService;
    audit: AuditService;
    /** The workspace single sign-on provisions roles in (`default`). */
    workspaceId: () => Promise<string>;
    roles: { defaultRole: MemberRole | undefined; claimConfigured: boolean };
    inTransaction: <T>(work: () => Promise<T>) => Promise<T>;
    /** The public base URL: the callback the provider redirected to is this plus the request's path. */
    baseUrl: string;
  },
): FastifyPluginAsyncZod {
  const { sso, accounts, audit, roles, inTransaction } = dependencies;
  // The flow cookie comes back on the provider's redirect, a cross-site navigation: Lax, not Strict.
  const flowCookieValue = (value: string, maxAgeSeconds: number) =>
    [
      `${flowCookie}=${value}`,
      'Path=/console/v1/oidc',
      'HttpOnly',
      'SameSite=Lax',
      `Max-Age=${maxAgeSeconds}`,
    ]
      .concat(secureCookie ? ['Secure'] : [])
      .join('; ');
  const redirected = z.null().describe('a redirect (Location)');

  return async (app) => {
    const tags = ['console'];
    const record = (request: FastifyRequest, status: number, actor: AuditActor, workspaceId: string | null) =>
      recordConsoleEvent(audit, request, { status, actor, workspaceId, resource: { type: 'session' } });
    const toConsoleWithError = (reply: FastifyReply, message: string) =>
      reply
        .header('set-cookie', flowCookieValue('', 0))
        .redirect(`/?sign_in_error=${encodeURIComponent(message)}`, 302);

    app.get(
      '/oidc/start',
      { schema: { 'x-right': 'public', tags, response: { 302: redirected } } },
      async (_request, reply) => {
        const started = await sso.start();
        return reply.header('set-cookie', flowCookieValue(started.flow, 600)).redirect(started.url, 302);
      },
    );

    app.get(
      '/oidc/callback',
      { schema: { 'x-right': 'public', tags, querystring: callbackQuery, response: { 302: redirected } } },
      async (request, reply) => {
        let label = 'unknown';
        try {
          const callbackUrl = new URL(request.url, dependencies.baseUrl);
          const identity = await sso.finish(callbackUrl, cookieOf(request, flowCookie));
          label = identity.email;
          const workspaceId = await dependencies.workspaceId();
          const user = await inTransaction(() =>
            accounts.provisionFromProvider(identity, workspaceId, roles),
          );
          const [first] = await accounts.workspacesOf(user.id);
          if (!first) {
            await record(request, 403, { type: 'user', id: user.id, label }, null);
            return toConsoleWithError(
              reply,
              'You belong to no workspace yet: ask an administrator for an invitation',
            );
          }
          const signedIn = await sessions.signInPerson(user.id, first.workspace.id);
          await record(request, 201, { type: 'user', id: user.id, label }, first.workspace.id);
          return reply
            .header('set-cookie', [
              ...sessionCookies(signedIn.token, { maxAgeMs: sessions.idleMs, secure: secureCookie }),
              flowCookieValue('', 0),
            ])
            .redirect('/', 302);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          await record(request, error.status, { type: 'user', id: null, label }, null);
          return toConsoleWithError(reply, error.message);
        }
      },
    );
  };
}
