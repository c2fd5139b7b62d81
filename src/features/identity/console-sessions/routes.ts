import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../../errors.js';
import type { ConsoleSignIns } from '../../../http/authentication.js';
import { recordConsoleEvent } from '../../../http/authorization.js';
import { assertSameOrigin, sessionCookies, sessionTokenOf } from '../../../http/session-cookie.js';
import { type AuditActor, type AuditService, actorOf } from '../audit/index.js';
import { type AccountService, recordInWorkspacesOf, statusOf } from '../people/index.js';
import { presentSignIn } from './presenters.js';
import { signedInResponse, signedOutResponse, signInOptionsResponse } from './responses.js';
import { signInBody, switchWorkspaceBody } from './schemas.js';
import type { ConsoleSessionService } from './service.js';

/** What the console's sign-in needs beyond the sessions: people, the audit log, the options. */
export type ConsolePeople = {
  accounts: AccountService;
  audit: AuditService;
  /** Whether an API key still signs the console in (LECTERN_CONSOLE_KEY_SIGNIN). */
  keySignIn: boolean;
  /** Whether single sign-on is configured. */
  sso: boolean;
};

/**
 * The console's sign-in (docs/api.md#console-sign-in): a person's e-mail address and password, or a
 * workspace API key pasted once; the browser gets an HttpOnly session cookie and never stores either.
 * Every sign-in, failed sign-in and sign-out is an audit record.
 */
export function consoleSessionRoutes(
  { sessions, secureCookie, publicOrigin }: ConsoleSignIns<ConsoleSessionService>,
  { accounts, audit, keySignIn, sso }: ConsolePeople,
): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['console'];
    const record = (request: FastifyRequest, status: number, actor: AuditActor, workspaceId: string | null) =>
      recordConsoleEvent(audit, request, { status, actor, workspaceId, resource: { type: 'session' } });
    const setCookie = (reply: { header(name: string, value: string[]): unknown }, token: string) =>
      reply.header(
        'set-cookie',
        sessionCookies(token, { maxAgeMs: token ? sessions.idleMs : 0, secure: secureCookie }),
      );

    app.get(
      '/sign_in_options',
      { schema: { 'x-right': 'public', tags, response: { 200: signInOptionsResponse } } },
      async () => ({ password: true as const, sso, api_key: keySignIn }),
    );

    app.post(
      '/session',
      { schema: { 'x-right': 'public', tags, body: signInBody, response: { 201: signedInResponse } } },
      async (request, reply) => {
        // A sign-in from another site's page would sign the person into someone else's workspace.
        assertSameOrigin(request, publicOrigin);
        const { api_key: apiKey, email, password } = request.body;
        let signedIn: Awaited<ReturnType<typeof sessions.signIn>>;
        if (apiKey !== undefined) {
          if (!keySignIn)
            throw new ForbiddenError('This console signs in with an e-mail address or single sign-on only');
          signedIn = await sessions.signIn(apiKey, request.ip);
          if (!signedIn) throw new UnauthorizedError('Invalid or revoked API key');
        } else {
          if (email === undefined) throw new ValidationError('email', 'is required (or api_key)');
          if (password === undefined) throw new ValidationError('password', 'is required');
          const attempt: AuditActor = { type: 'user', id: null, label: email.toLowerCase() };
          let user: Awaited<ReturnType<typeof accounts.verifySignIn>>;
          try {
            user = await accounts.verifySignIn(email, password, request.ip);
          } catch (error) {
            // In each workspace of the address: its admins see the attempts on their people.
            await recordInWorkspacesOf({ audit, accounts }, request, {
              status: statusOf(error),
              email,
              resource: 'session',
            });
            throw error;
          }
          // A person lands in the first workspace they belong to; the switcher moves them.
          const [first] = await accounts.workspacesOf(user.id);
          if (!first) {
            await record(request, 403, { ...attempt, id: user.id }, null);
            throw new ForbiddenError(
              'You belong to no workspace yet: ask an administrator for an invitation',
            );
          }
          signedIn = await sessions.signInPerson(user.id, first.workspace.id);
        }
        await record(request, 201, actorOf(signedIn.principal), signedIn.workspace.id);
        setCookie(reply, signedIn.token);
        return reply.status(201).send(presentSignIn(signedIn));
      },
    );

    app.get(
      '/session',
      { schema: { 'x-right': 'public', tags, response: { 200: signedInResponse } } },
      async (request) => {
        const token = sessionTokenOf(request);
        const session = token ? await sessions.authenticate(token) : undefined;
        if (!session) throw new UnauthorizedError('Not signed in');
        return presentSignIn(session);
      },
    );

    // The workspace switcher: a person's session moves to another workspace they belong to.
    app.post(
      '/session/workspace',
      {
        schema: { 'x-right': 'public', tags, body: switchWorkspaceBody, response: { 200: signedInResponse } },
      },
      async (request) => {
        assertSameOrigin(request, publicOrigin);
        const token = sessionTokenOf(request);
        if (!token) throw new UnauthorizedError('Not signed in');
        const switched = await sessions.switchWorkspace(token, request.body.workspace);
        if (!switched) throw new NotFoundError('Workspace not found');
        return presentSignIn(switched);
      },
    );

    app.delete(
      '/session',
      { schema: { 'x-right': 'public', tags, response: { 200: signedOutResponse } } },
      async (request, reply) => {
        assertSameOrigin(request, publicOrigin);
        const token = sessionTokenOf(request);
        const session = token ? await sessions.authenticate(token) : undefined;
        if (token) await sessions.signOut(token);
        if (session) await record(request, 200, actorOf(session.principal), session.workspace.id);
        setCookie(reply, '');
        return { signed_out: true as const };
      },
    );

    // "Sign out everywhere": every browser signed in with the same key or as the same person.
    app.delete(
      '/sessions',
      { schema: { 'x-right': 'public', tags, response: { 200: signedOutResponse } } },
      async (request, reply) => {
        assertSameOrigin(request, publicOrigin);
        const token = sessionTokenOf(request);
        const session = token ? await sessions.authenticate(token) : undefined;
        const ended = token ? await sessions.signOutEverywhere(token) : 0;
        if (ended === 0 || !session) throw new UnauthorizedError('Not signed in');
        await record(request, 200, actorOf(session.principal), session.workspace.id);
        setCookie(reply, '');
        return { signed_out: true as const, sessions_ended: ended };
      },
    );
  };
}
