import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successResponse } from '../../../core/wire.js';
import type { ConsoleSignIns } from '../../../http/authentication.js';
import { recordConsoleEvent } from '../../../http/authorization.js';
import { assertSameOrigin, sessionCookies, sessionTokenOf } from '../../../http/session-cookie.js';
import type { AuditService } from '../audit/index.js';
import {
  type AccountService,
  acceptInvitationBody,
  type PersonRow,
  recordInWorkspacesOf,
  resetBody,
  resetRequestBody,
  setupBody,
  statusOf,
} from '../people/index.js';
import { presentSignIn } from './presenters.js';
import { setupStateResponse, signedInResponse } from './responses.js';
import type { ConsoleSessionService } from './service.js';

/**
 * The console's pages reached by a single-use link (docs/api.md#people-and-roles): accepting an
 * invitation, the first owner's setup, a password reset. Each is an audit record.
 */
export function consolePeopleRoutes(
  { sessions, secureCookie, publicOrigin }: ConsoleSignIns<ConsoleSessionService>,
  {
    accounts,
    audit,
    inTransaction,
  }: {
    accounts: AccountService;
    audit: AuditService;
    /** Runs a change and its audit record in one transaction (all or nothing: a link used once). */
    inTransaction: <T>(work: () => Promise<T>) => Promise<T>;
  },
): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['console'];
    const record = (
      request: FastifyRequest,
      status: number,
      user: PersonRow,
      workspaceId: string | null,
      resource: string,
    ) =>
      recordConsoleEvent(audit, request, {
        status,
        actor: { type: 'user', id: user.id, label: user.email },
        workspaceId,
        resource: { type: resource, id: user.id },
      });

    async function signInAs(user: PersonRow, workspaceId: string) {
      const signedIn = await sessions.signInPerson(user.id, workspaceId);
      const cookie = sessionCookies(signedIn.token, { maxAgeMs: sessions.idleMs, secure: secureCookie });
      return { signedIn, cookie };
    }

    app.post(
      '/invitations/accept',
      {
        schema: {
          'x-right': 'public',
          tags,
          body: acceptInvitationBody,
          response: { 201: signedInResponse },
        },
      },
      async (request, reply) => {
        assertSameOrigin(request, publicOrigin);
        const token = sessionTokenOf(request);
        const current = token ? await sessions.authenticate(token) : undefined;
        const { token: invitation, ...person } = request.body;
        const proof = { personId: current?.principal.person?.id, address: request.ip };
        const { user, workspaceId } = await inTransaction(async () => {
          const accepted = await accounts.acceptInvitation(invitation, person, proof);
          await record(request, 201, accepted.user, accepted.workspaceId, 'member');
          return accepted;
        }).catch(async (error: unknown) => {
          // A wrong password is a failed sign-in of the invited address: recorded where it belongs.
          const status = statusOf(error);
          const invited =
            status === 401 || status === 429 ? await accounts.invitationOf(invitation) : undefined;
          if (invited)
            await recordInWorkspacesOf({ audit, accounts }, request, {
              status,
              email: invited.email,
              resource: 'member',
              alsoIn: invited.workspaceId,
            });
          throw error;
        });
        const { signedIn, cookie } = await signInAs(user, workspaceId);
        return reply.status(201).header('set-cookie', cookie).send(presentSignIn(signedIn));
      },
    );

    app.get(
      '/setup',
      {
        schema: {
          'x-right': 'public',
          tags,
          querystring: z.strictObject({ token: z.string().min(1).max(200) }),
          response: { 200: setupStateResponse },
        },
      },
      async (request) => {
        const { pending, ownerExists } = await accounts.setupState(request.query.token);
        return { pending, owner_exists: ownerExists };
      },
    );

    app.post(
      '/setup',
      { schema: { 'x-right': 'public', tags, body: setupBody, response: { 201: signedInResponse } } },
      async (request, reply) => {
        assertSameOrigin(request, publicOrigin);
        const { token, ...owner } = request.body;
        const { user, first } = await inTransaction(async () => {
          const made = await accounts.completeSetup(token, owner);
          const [workspace] = await accounts.workspacesOf(made.id);
          await record(request, 201, made, workspace!.workspace.id, 'member');
          return { user: made, first: workspace };
        });
        const { signedIn, cookie } = await signInAs(user, first!.workspace.id);
        return reply.status(201).header('set-cookie', cookie).send(presentSignIn(signedIn));
      },
    );

    app.post(
      '/password_reset',
      { schema: { 'x-right': 'public', tags, body: resetBody, response: { 200: successResponse } } },
      async (request) => {
        assertSameOrigin(request, publicOrigin);
        await inTransaction(async () => {
          const user = await accounts.resetPassword(request.body.token, request.body.password);
          await recordInWorkspacesOf({ audit, accounts }, request, {
            status: 200,
            email: user.email,
            resource: 'user',
          });
        });
        return { status: 'success' as const };
      },
    );

    // The forgotten-password flow: the same answer whether or not the address has an account.
    app.post(
      '/password_reset/request',
      {
        schema: {
          'x-right': 'public',
          tags,
          body: resetRequestBody,
          response: { 202: successResponse },
        },
      },
      async (request, reply) => {
        assertSameOrigin(request, publicOrigin);
        await inTransaction(() => accounts.requestPasswordReset(request.body.email, request.ip));
        return reply.status(202).send({ status: 'success' as const });
      },
    );
  };
}
