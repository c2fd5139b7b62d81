import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid, guidParams } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { errorResponse, listResponse } from '../../../core/wire.js';
import { ForbiddenError } from '../../../errors.js';
import { principalOf, workspaceInPath, workspaceOf } from '../../../http/authentication.js';
import { presentApiKey, presentNewApiKey, presentRevokedApiKey, presentWorkspace } from './presenters.js';
import { apiKeyResponse, newApiKeyResponse, revokedApiKeyResponse, workspaceResponse } from './responses.js';
import type { WorkspaceService } from './service.js';

const renameWorkspaceBody = z.strictObject({ name: z.string().trim().min(1).max(200) });
const apiKeyParams = z.object({ guid, key: guid });

const operatorOnly =
  'Workspaces are created and deleted by the instance operator: POST /admin/v1/workspaces with the admin token, or `lectern workspace create NAME`';

/**
 * The key's own workspace under `/v1/workspace` (the official SDK's `workspaces` client,
 * docs/sdk-compatibility.md). A key reaches only its workspace: any other GUID is 404, as for every resource.
 */
export function workspaceRoutes(workspaces: WorkspaceService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['workspaces'];
    const own = workspaceInPath;

    app.get(
      '/workspace/current',
      { schema: { 'x-right': 'read', tags, response: { 200: workspaceResponse } } },
      async (request) => {
        return presentWorkspace(await workspaces.findWorkspace(workspaceOf(request).id));
      },
    );

    app.get(
      '/workspace',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery,
          response: { 200: listResponse(workspaceResponse) },
        },
      },
      async (request) => {
        const current = presentWorkspace(await workspaces.findWorkspace(workspaceOf(request).id));
        return listEnvelope(request.query.skip === 0 ? [current] : [], 1, request.query);
      },
    );

    app.post(
      '/workspace',
      { schema: { 'x-right': 'manage', tags, response: { 403: errorResponse } } },
      async () => {
        throw new ForbiddenError(operatorOnly);
      },
    );

    app.get(
      '/workspace/:guid',
      { schema: { 'x-right': 'read', tags, params: guidParams, response: { 200: workspaceResponse } } },
      async (request) => {
        return presentWorkspace(await workspaces.findWorkspace(own(request)));
      },
    );

    app.put(
      '/workspace/:guid',
      {
        schema: {
          'x-right': 'manage',
          tags,
          params: guidParams,
          body: renameWorkspaceBody,
          response: { 200: workspaceResponse },
        },
      },
      async (request) => presentWorkspace(await workspaces.rename(own(request), request.body.name)),
    );

    app.delete(
      '/workspace/:guid',
      { schema: { 'x-right': 'manage', tags, params: guidParams, response: { 403: errorResponse } } },
      async (request) => {
        own(request);
        throw new ForbiddenError(operatorOnly);
      },
    );
  };
}

/** The workspace's own keys (the console's settings): listed by prefix, made (shown once), revoked. */
export function workspaceKeyRoutes(workspaces: WorkspaceService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['workspaces'];
    const own = workspaceInPath;
    app.get(
      '/workspace/:guid/api_keys',
      {
        schema: {
          'x-right': 'manage',
          tags,
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: listResponse(apiKeyResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await workspaces.listApiKeys(own(request), request.query);
        return listEnvelope(rows.map(presentApiKey), total, request.query);
      },
    );

    app.post(
      '/workspace/:guid/api_keys',
      { schema: { 'x-right': 'manage', tags, params: guidParams, response: { 201: newApiKeyResponse } } },
      async (request, reply) => {
        // An admin key, made by the signed-in person (if one is): it stops when they leave.
        const created = await workspaces.createApiKey(own(request), {
          createdBy: principalOf(request).person?.id,
        });
        return reply.status(201).send(presentNewApiKey(created));
      },
    );

    app.delete(
      '/workspace/:guid/api_keys/:key',
      {
        schema: { 'x-right': 'manage', tags, params: apiKeyParams, response: { 200: revokedApiKeyResponse } },
      },
      async (request) => {
        const workspaceId = own(request);
        return presentRevokedApiKey(await workspaces.revokeApiKey(request.params.key, workspaceId));
      },
    );
  };
}
