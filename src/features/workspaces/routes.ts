import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid, guidParams } from '../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../core/pagination.js';
import { errorResponse, listResponse } from '../../core/wire.js';
import { ForbiddenError, NotFoundError } from '../../errors.js';
import { principalOf, workspaceOf } from '../../http/authentication.js';
import { bareList } from '../../http/bare-list.js';
import { type AppService, presentApp } from '../apps/index.js';
import { appResponse } from '../apps/responses.js';
import { type ContextService, presentContext } from '../contexts/index.js';
import { contextResponse } from '../contexts/responses.js';
import { type ProviderService, presentModel } from '../providers/index.js';
import { modelResponse } from '../providers/responses.js';
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
export function workspaceRoutes(
  workspaces: WorkspaceService,
  apps: AppService,
  contexts: ContextService,
  providers: ProviderService,
): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['workspaces'];
    const own = async (request: { params: { guid: string } } & Parameters<typeof workspaceOf>[0]) => {
      const caller = workspaceOf(request);
      if (request.params.guid !== caller.id) throw new NotFoundError('Workspace not found');
      return caller.id;
    };

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
        return presentWorkspace(await workspaces.findWorkspace(await own(request)));
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
      async (request) => presentWorkspace(await workspaces.rename(await own(request), request.body.name)),
    );

    app.delete(
      '/workspace/:guid',
      { schema: { 'x-right': 'manage', tags, params: guidParams, response: { 403: errorResponse } } },
      async (request) => {
        await own(request);
        throw new ForbiddenError(operatorOnly);
      },
    );

    // Bare arrays, as the SDK's getApps / getContexts / getModels read them; skip and limit apply.
    app.get(
      '/workspace/:guid/apps',
      {
        schema: {
          'x-right': 'read',
          tags,
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: z.array(appResponse) },
        },
      },
      async (request, reply) => {
        const { rows, total } = await apps.list(await own(request), request.query);
        return bareList(reply, rows.map(presentApp), total);
      },
    );

    app.get(
      '/workspace/:guid/context',
      {
        schema: {
          'x-right': 'read',
          tags,
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: z.array(contextResponse) },
        },
      },
      async (request, reply) => {
        const { rows, total } = await contexts.list(await own(request), request.query);
        return bareList(reply, rows.map(presentContext), total);
      },
    );

    app.get(
      '/workspace/:guid/models',
      {
        schema: {
          'x-right': 'read',
          tags,
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: z.array(modelResponse) },
        },
      },
      async (request, reply) => {
        const { rows, total } = await providers.listModels(await own(request), request.query);
        return bareList(reply, rows.map(presentModel), total);
      },
    );

    // The workspace's own keys (the console's settings): listed by prefix, made (shown once), revoked.
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
        const { rows, total } = await workspaces.listApiKeys(await own(request), request.query);
        return listEnvelope(rows.map(presentApiKey), total, request.query);
      },
    );

    app.post(
      '/workspace/:guid/api_keys',
      { schema: { 'x-right': 'manage', tags, params: guidParams, response: { 201: newApiKeyResponse } } },
      async (request, reply) => {
        // An admin key, made by the signed-in person (if one is): it stops when they leave.
        const created = await workspaces.createApiKey(await own(request), {
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
        const workspaceId = await own(request);
        return presentRevokedApiKey(await workspaces.revokeApiKey(request.params.key, workspaceId));
      },
    );
  };
}
