import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ProviderUrls } from '../../../config.js';
import { guidParams } from '../../../core/guid.js';
import { listEnvelope, paginationQuery, wholeList } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { workspaceInPath, workspaceOf } from '../../../http/authentication.js';
import { bareList } from '../../../http/bare-list.js';
import { byGuid, removalByGuid } from '../../../http/by-guid.js';
import { validateProviderKey } from './key-validation.js';
import { presentModel, presentProvider, presentProviderKind } from './presenters.js';
import {
  connectionTestResponse,
  keyValidationResponse,
  modelResponse,
  providerKindResponse,
  providerResponse,
  sdkProviderResponse,
} from './responses.js';
import {
  createModelBody,
  createProviderBody,
  sdkProviderBody,
  sdkProviderUpdateBody,
  updateProviderBody,
  validateKeyBody,
} from './schemas.js';
import type { ProviderService } from './service.js';

export function providerRoutes(
  providers: ProviderService,
  operatorUrls: ProviderUrls,
): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['providers'];
    const one = { 200: providerResponse };

    app.get(
      '/providers/kinds',
      { schema: { 'x-right': 'read', tags, response: { 200: listResponse(providerKindResponse) } } },
      async () => {
        return wholeList(providers.kinds().map(presentProviderKind));
      },
    );
    app.post(
      '/providers',
      {
        schema: { 'x-right': 'manage', tags, body: createProviderBody, response: { 201: providerResponse } },
      },
      async (request, reply) => {
        return reply
          .status(201)
          .send(presentProvider(await providers.create(workspaceOf(request).id, request.body)));
      },
    );
    // The console's "test connection": the provider's model list, asked with its stored key.
    app.post(
      '/providers/:guid/test',
      {
        schema: {
          'x-right': 'manage',
          'x-audit': false,
          tags,
          params: guidParams,
          response: { 200: connectionTestResponse },
        },
      },
      async (request) => {
        return providers.testConnection(workspaceOf(request).id, request.params.guid);
      },
    );
    app.get(
      '/providers',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery,
          response: { 200: listResponse(providerResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await providers.list(workspaceOf(request).id, request.query);
        return listEnvelope(rows.map(presentProvider), total, request.query);
      },
    );
    app.get(
      '/providers/:guid',
      { schema: { 'x-right': 'read', tags, params: guidParams, response: one } },
      async (request) => {
        return presentProvider(await providers.require(workspaceOf(request).id, request.params.guid));
      },
    );
    app.put(
      '/providers/:guid',
      { schema: { 'x-right': 'manage', tags, params: guidParams, body: updateProviderBody, response: one } },
      async (request) => {
        return presentProvider(
          await providers.update(workspaceOf(request).id, request.params.guid, request.body),
        );
      },
    );
    app.delete(
      '/providers/:guid',
      removalByGuid('manage', tags, (workspaceId, guid) => providers.remove(workspaceId, guid)),
    );

    app.post(
      '/models',
      { schema: { 'x-right': 'manage', tags, body: createModelBody, response: { 201: modelResponse } } },
      async (request, reply) => {
        return reply
          .status(201)
          .send(presentModel(await providers.createModel(workspaceOf(request).id, request.body)));
      },
    );
    // A bare array: the official SDK's models.getAllModels reads one (docs/sdk-compatibility.md).
    app.get(
      '/models',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery,
          response: { 200: z.array(modelResponse) },
        },
      },
      async (request, reply) => {
        const { rows, total } = await providers.listModels(workspaceOf(request).id, request.query);
        return bareList(reply, rows.map(presentModel), total);
      },
    );
    // The SDK's models.getDefault asks at /v1/models/models/default (its path joined to its base).
    for (const path of ['/models/default', '/models/models/default']) {
      app.get(
        path,
        {
          schema: {
            'x-right': 'read',
            tags,
            hide: path !== '/models/default',
            response: { 200: modelResponse },
          },
        },
        async (request) => {
          return presentModel(await providers.defaultModel(workspaceOf(request).id));
        },
      );
    }
    app.get(
      '/models/:guid',
      byGuid('read', tags, { response: modelResponse }, async (workspaceId, guid) =>
        presentModel(await providers.requireModel(workspaceId, guid)),
      ),
    );
    app.delete(
      '/models/:guid',
      removalByGuid('manage', tags, (workspaceId, guid) => providers.removeModel(workspaceId, guid)),
    );

    // The official SDK manages providers under /v1/models/provider (docs/sdk-compatibility.md); bare arrays.
    app.post(
      '/models/provider',
      {
        schema: { 'x-right': 'manage', tags, body: sdkProviderBody, response: { 201: sdkProviderResponse } },
      },
      async (request, reply) => {
        const { nickname, ...fields } = request.body;
        const provider = await providers.create(workspaceOf(request).id, {
          ...fields,
          nickname: nickname ?? undefined,
        });
        return reply.status(201).send({ ...presentProvider(provider), models: [] });
      },
    );
    app.get(
      '/models/provider',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery,
          response: { 200: z.array(providerResponse) },
        },
      },
      async (request, reply) => {
        const { rows, total } = await providers.list(workspaceOf(request).id, request.query);
        return bareList(reply, rows.map(presentProvider), total);
      },
    );
    app.put(
      '/models/provider/:guid',
      {
        schema: { 'x-right': 'manage', tags, params: guidParams, body: sdkProviderUpdateBody, response: one },
      },
      async (request) =>
        presentProvider(await providers.update(workspaceOf(request).id, request.params.guid, request.body)),
    );
    app.delete(
      '/models/provider/:guid',
      removalByGuid('manage', tags, (workspaceId, guid) => providers.remove(workspaceId, guid)),
    );
    app.post(
      '/models/validate',
      {
        schema: {
          'x-right': 'manage',
          'x-audit': false,
          tags,
          body: validateKeyBody,
          response: { 200: keyValidationResponse },
        },
      },
      async (request) => {
        return {
          validated: await validateProviderKey(request.body.provider, request.body.api_key, operatorUrls),
        };
      },
    );
  };
}

/**
 * The workspace's models as a bare array under `/workspace/:guid/models` (the official SDK's
 * getModels reads them so); skip and limit apply.
 */
export function workspaceModelListRoute(providers: ProviderService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/workspace/:guid/models',
      {
        schema: {
          'x-right': 'read',
          tags: ['workspaces'],
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: z.array(modelResponse) },
        },
      },
      async (request, reply) => {
        const { rows, total } = await providers.listModels(workspaceInPath(request), request.query);
        return bareList(reply, rows.map(presentModel), total);
      },
    );
  };
}
