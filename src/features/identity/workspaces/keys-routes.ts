import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guidParams } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { keyRoles, mayGrant } from '../../../core/roles.js';
import { listResponse } from '../../../core/wire.js';
import { ForbiddenError } from '../../../errors.js';
import { principalOf, workspaceOf } from '../../../http/authentication.js';
import { presentApiKey, presentCreatedApiKey } from './presenters.js';
import { apiKeyResponse, createdApiKeyResponse } from './responses.js';
import type { WorkspaceService } from './service.js';

const newKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  role: z
    .enum(keyRoles)
    .optional()
    .describe('at most your own role; `runner` for applications; default your own'),
});

/**
 * API keys that belong to people (docs/api.md#api-keys): a member makes keys up to their own role
 * and sees and revokes their own; an admin sees and revokes every key of the workspace.
 */
export function apiKeyRoutes(workspaces: WorkspaceService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['api keys'];

    app.post(
      '/api_keys',
      {
        schema: {
          tags,
          'x-right': 'create_keys',
          body: newKeyBody,
          response: { 201: createdApiKeyResponse },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        // By default a key has its maker's role; keys go up to admin (an owner's keys are admin keys).
        // A reviewer holds no key right (the route's right already refuses them); no key is a reviewer's.
        if (principal.role === 'reviewer') throw new ForbiddenError('A reviewer may not create keys');
        const role = request.body.role ?? (principal.role === 'owner' ? 'admin' : principal.role);
        if (!mayGrant(principal.role, role))
          throw new ForbiddenError(
            `A ${principal.role} may create keys with a role up to its own, not ${role}`,
          );
        const created = await workspaces.createApiKey(workspaceOf(request).id, {
          name: request.body.name,
          role,
          createdBy: principal.person?.id,
        });
        const [listed] = (
          await workspaces.listApiKeys(workspaceOf(request).id, { skip: 0, limit: 1 }, { id: created.key.id })
        ).rows;
        return reply.status(201).send(presentCreatedApiKey(listed!, created.apiKey));
      },
    );

    app.get(
      '/api_keys',
      {
        schema: {
          tags,
          'x-right': 'create_keys',
          querystring: paginationQuery,
          response: { 200: listResponse(apiKeyResponse) },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        // An admin sees every key; anyone else the keys they made.
        const filter = principal.rights.has('manage') ? {} : { createdBy: principal.person?.id ?? null };
        const { rows, total } = await workspaces.listApiKeys(workspaceOf(request).id, request.query, filter);
        return listEnvelope(rows.map(presentApiKey), total, request.query);
      },
    );

    app.delete(
      '/api_keys/:guid',
      { schema: { tags, 'x-right': 'create_keys', params: guidParams, response: { 200: apiKeyResponse } } },
      async (request) => {
        const principal = principalOf(request);
        const workspaceId = workspaceOf(request).id;
        const key = await workspaces.findApiKey(workspaceId, request.params.guid);
        const own = key.createdBy !== null && key.createdBy === principal.person?.id;
        if (!own && !principal.rights.has('manage'))
          throw new ForbiddenError('Only its creator or an admin may revoke this key');
        await workspaces.revokeApiKey(key.id, workspaceId);
        const [listed] = (await workspaces.listApiKeys(workspaceId, { skip: 0, limit: 1 }, { id: key.id }))
          .rows;
        return presentApiKey(listed!);
      },
    );
  };
}
