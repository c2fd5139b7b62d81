import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guidParams } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse, successResponse } from '../../../core/wire.js';
import { NotFoundError } from '../../../errors.js';
import { principalOf, workspaceOf } from '../../../http/authentication.js';
import { describeChange, recordChangeOf } from '../../../http/authorization.js';
import { sessionTokenOf } from '../../../http/session-cookie.js';
import type { AuditService } from '../audit/index.js';
import type { AccountService } from './accounts.js';
import type { MemberService } from './members.js';
import {
  presentInvitation,
  presentMe,
  presentMember,
  presentNewInvitation,
  presentPerson,
} from './presenters.js';
import { recordInWorkspacesOf, statusOf } from './refused-attempts.js';
import {
  memberResponse,
  memberWorkspaceResponse,
  meResponse,
  newInvitationResponse,
  passwordResetResponse,
  pendingInvitationResponse,
  personSummary,
} from './responses.js';
import { inviteBody, passwordChangeBody, profileBody, roleBody } from './schemas.js';

/** The caller, the workspace's members and invitations (docs/api.md#people-and-roles). */
export function peopleRoutes(
  accounts: AccountService,
  members: MemberService,
  audit: AuditService,
): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['people'];

    app.get('/me', { schema: { tags, 'x-right': 'self', response: { 200: meResponse } } }, async (request) =>
      presentMe(principalOf(request), workspaceOf(request)),
    );

    // The workspace switcher: a person's workspaces (a key has its own only).
    app.get(
      '/me/workspaces',
      { schema: { tags, 'x-right': 'self', response: { 200: z.array(memberWorkspaceResponse) } } },
      async (request) => {
        const principal = principalOf(request);
        // A key belongs to its one workspace and switches nowhere.
        if (principal.type === 'key') return [];
        const all = await accounts.workspacesOf(principal.person!.id);
        return all.map(({ workspace, role }) => ({ guid: workspace.id, name: workspace.name, role }));
      },
    );

    app.put(
      '/me',
      { schema: { tags, 'x-right': 'self', body: profileBody, response: { 200: personSummary } } },
      async (request) => {
        const user = principalOf(request).person;
        if (principalOf(request).type !== 'person' || !user)
          throw new NotFoundError('An API key has no profile');
        return presentPerson(await accounts.updatePerson(user.id, { name: request.body.name }));
      },
    );

    app.put(
      '/me/password',
      {
        schema: {
          tags,
          'x-right': 'self',
          // In the handler: a refused attempt is recorded too, outside the change's transaction.
          'x-audit': 'in-handler',
          body: passwordChangeBody,
          response: { 200: successResponse },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        if (principal.type !== 'person' || !principal.person)
          throw new NotFoundError('An API key has no password');
        const person = principal.person;
        const change = () =>
          accounts.changePassword(
            person.id,
            { current: request.body.current_password, new: request.body.new_password },
            { address: request.ip, keepSessionToken: sessionTokenOf(request) },
          );
        try {
          await recordChangeOf(request)(change);
        } catch (error) {
          const status = statusOf(error);
          if (status === 401 || status === 429)
            await recordInWorkspacesOf({ audit, accounts }, request, {
              status,
              email: person.email,
              resource: 'user',
            });
          throw error;
        }
        return { status: 'success' as const };
      },
    );

    app.get(
      '/members',
      {
        schema: {
          tags,
          'x-right': 'read',
          querystring: paginationQuery,
          response: { 200: listResponse(memberResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await members.list(workspaceOf(request).id, request.query);
        return listEnvelope(rows.map(presentMember), total, request.query);
      },
    );

    app.post(
      '/members',
      { schema: { tags, 'x-right': 'manage', body: inviteBody, response: { 201: newInvitationResponse } } },
      async (request, reply) => {
        const invited = await members.invite(
          workspaceOf(request),
          principalOf(request),
          request.body.email,
          request.body.role,
        );
        return reply.status(201).send(presentNewInvitation(invited));
      },
    );

    app.put(
      '/members/:guid',
      {
        schema: {
          tags,
          'x-right': 'manage',
          params: guidParams,
          body: roleBody,
          response: { 200: memberResponse },
        },
      },
      async (request) => {
        const changed = await members.changeRole(
          workspaceOf(request).id,
          principalOf(request),
          request.params.guid,
          request.body.role,
        );
        return presentMember(changed);
      },
    );

    app.delete(
      '/members/:guid',
      { schema: { tags, 'x-right': 'manage', params: guidParams, response: { 200: memberResponse } } },
      async (request) => {
        return presentMember(
          await members.remove(workspaceOf(request).id, principalOf(request), request.params.guid),
        );
      },
    );

    // An admin-issued password reset link for a member (e-mailed when SMTP is set; shown either way).
    app.post(
      '/members/:guid/password_reset',
      { schema: { tags, 'x-right': 'manage', params: guidParams, response: { 201: passwordResetResponse } } },
      async (request, reply) => {
        const workspaceId = workspaceOf(request).id;
        const principal = principalOf(request);
        const { user, workspaceIds } = await members.authorizeReset(
          workspaceId,
          principal,
          request.params.guid,
        );
        // The record names every workspace whose member the link lets in.
        describeChange(request, { user: user.id, workspaces: workspaceIds });
        const reset = await accounts.issuePasswordReset(user, { userId: principal.person?.id, workspaceId });
        return reply
          .status(201)
          .send({ reset_url: reset.url, expires_at: reset.expiresAt.toISOString(), emailed: reset.emailed });
      },
    );

    app.get(
      '/invitations',
      { schema: { tags, 'x-right': 'manage', response: { 200: listResponse(pendingInvitationResponse) } } },
      async (request) => {
        const pending = await members.pendingInvitations(workspaceOf(request).id);
        return listEnvelope(pending.map(presentInvitation), pending.length, {
          skip: 0,
          limit: pending.length,
        });
      },
    );

    app.delete(
      '/invitations/:guid',
      {
        schema: {
          tags,
          'x-right': 'manage',
          params: guidParams,
          response: { 200: pendingInvitationResponse },
        },
      },
      async (request) =>
        presentInvitation(await members.revokeInvitation(workspaceOf(request).id, request.params.guid)),
    );
  };
}
