import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guidParams } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { requireAdminToken } from '../../../http/authentication.js';
import { describeChange } from '../../../http/authorization.js';
import {
  type AccountService,
  memberBody,
  newPersonBody,
  personChangesBody,
  presentMember,
  presentPerson,
} from '../../identity/people/index.js';
import { memberResponse, passwordResetResponse, personSummary } from '../../identity/people/responses.js';
import {
  presentApiKey,
  presentNewApiKey,
  presentNewWorkspace,
  presentRevokedApiKey,
  presentWorkspace,
  type WorkspaceService,
} from '../../identity/workspaces/index.js';
import {
  apiKeyResponse,
  newApiKeyResponse,
  newWorkspaceResponse,
  revokedApiKeyResponse,
  workspaceResponse,
} from '../../identity/workspaces/responses.js';

const adminPersonResponse = personSummary.extend({ active: z.boolean() });
const workspaceBody = z.object({ name: z.string().trim().min(1).max(200) });
const settingsBody = z.strictObject({
  allow_model_overrides: z
    .boolean()
    .optional()
    .describe('whether runs may override provider and model (modelOptions)'),
  rate_limit_per_minute: z
    .int()
    .min(0)
    .max(1_000_000)
    .nullable()
    .optional()
    .describe("requests a minute per API key of the workspace; 0 = no limit; null = the instance's default"),
});

/** The instance admin API (docs/operations.md#workspaces-keys-and-the-admin-api), mounted only when LECTERN_ADMIN_TOKEN is set. */
export function adminRoutes(
  workspaces: WorkspaceService,
  accounts: AccountService,
  adminToken: string,
): FastifyPluginAsyncZod {
  return async (app) => {
    requireAdminToken(app, adminToken);
    const tags = ['admin'];

    app.post(
      '/workspaces',
      {
        schema: { 'x-right': 'operator', tags, body: workspaceBody, response: { 201: newWorkspaceResponse } },
      },
      async (request, reply) => {
        return reply
          .status(201)
          .send(presentNewWorkspace(await workspaces.createWorkspace(request.body.name)));
      },
    );

    app.get(
      '/workspaces',
      {
        schema: {
          'x-right': 'operator',
          tags,
          querystring: paginationQuery,
          response: { 200: listResponse(workspaceResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await workspaces.listWorkspaces(request.query);
        return listEnvelope(rows.map(presentWorkspace), total, request.query);
      },
    );

    app.put(
      '/workspaces/:guid/settings',
      {
        schema: {
          'x-right': 'operator',
          tags,
          params: guidParams,
          body: settingsBody,
          response: { 200: workspaceResponse },
        },
      },
      async (request) => {
        const updated = await workspaces.updateSettings(request.params.guid, {
          ...(request.body.allow_model_overrides !== undefined && {
            allowModelOverrides: request.body.allow_model_overrides,
          }),
          ...(request.body.rate_limit_per_minute !== undefined && {
            requestsPerMinute: request.body.rate_limit_per_minute,
          }),
        });
        return presentWorkspace(updated);
      },
    );

    app.post(
      '/workspaces/:guid/api_keys',
      { schema: { 'x-right': 'operator', tags, params: guidParams, response: { 201: newApiKeyResponse } } },
      async (request, reply) => {
        return reply.status(201).send(presentNewApiKey(await workspaces.createApiKey(request.params.guid)));
      },
    );

    app.get(
      '/workspaces/:guid/api_keys',
      {
        schema: {
          'x-right': 'operator',
          tags,
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: listResponse(apiKeyResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await workspaces.listApiKeys(request.params.guid, request.query);
        return listEnvelope(rows.map(presentApiKey), total, request.query);
      },
    );

    app.delete(
      '/api_keys/:guid',
      {
        schema: { 'x-right': 'operator', tags, params: guidParams, response: { 200: revokedApiKeyResponse } },
      },
      async (request) => {
        return presentRevokedApiKey(await workspaces.revokeApiKey(request.params.guid));
      },
    );

    // People: made here (with or without a password), deactivated, added to workspaces.
    app.post(
      '/users',
      { schema: { 'x-right': 'operator', tags, body: newPersonBody, response: { 201: personSummary } } },
      async (request, reply) =>
        reply.status(201).send(presentPerson(await accounts.createPerson(request.body))),
    );

    app.put(
      '/users/:guid',
      {
        schema: {
          'x-right': 'operator',
          tags,
          params: guidParams,
          body: personChangesBody,
          response: { 200: adminPersonResponse },
        },
      },
      async (request) => {
        const user = await accounts.updatePerson(request.params.guid, request.body);
        return { ...presentPerson(user), active: user.active };
      },
    );

    // The operator may issue a reset link for anyone, owners included (members may not: see
    // POST /v1/members/{guid}/password_reset); the record names every workspace it lets into.
    app.post(
      '/users/:guid/password_reset',
      {
        schema: { 'x-right': 'operator', tags, params: guidParams, response: { 201: passwordResetResponse } },
      },
      async (request, reply) => {
        const user = await accounts.findPerson(request.params.guid);
        const { workspaceIds } = await accounts.standingOf(user.email);
        describeChange(request, { user: user.id, workspaces: workspaceIds });
        const reset = await accounts.issuePasswordReset(user);
        return reply
          .status(201)
          .send({ reset_url: reset.url, expires_at: reset.expiresAt.toISOString(), emailed: reset.emailed });
      },
    );

    app.post(
      '/workspaces/:guid/members',
      {
        schema: {
          'x-right': 'operator',
          tags,
          params: guidParams,
          body: memberBody,
          response: { 201: memberResponse },
        },
      },
      async (request, reply) => {
        const workspace = await workspaces.findWorkspace(request.params.guid);
        const user = await accounts.addMember(workspace.id, request.body.email, request.body.role);
        return reply.status(201).send(presentMember({ user, role: request.body.role }));
      },
    );
  };
}
