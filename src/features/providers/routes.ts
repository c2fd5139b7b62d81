import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { workspaceOf } from '../../http/authentication.js';
import { listEnvelope, paginationQuery } from '../../http/pagination.js';
import { guidParams } from '../../http/params.js';
import { createModelBody, createProviderBody, updateProviderBody } from './schemas.js';
import type { ProviderService } from './service.js';

export function providerRoutes(providers: ProviderService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['providers'];

    app.post('/providers', { schema: { tags, body: createProviderBody } }, async (request, reply) => {
      return reply.status(201).send(await providers.create(workspaceOf(request).id, request.body));
    });
    app.get('/providers', { schema: { tags, querystring: paginationQuery } }, async (request) => {
      const { rows, total } = await providers.list(workspaceOf(request).id, request.query);
      return listEnvelope(rows, total, request.query);
    });
    app.get('/providers/:guid', { schema: { tags, params: guidParams } }, async (request) => {
      return providers.get(workspaceOf(request).id, request.params.guid);
    });
    app.put(
      '/providers/:guid',
      { schema: { tags, params: guidParams, body: updateProviderBody } },
      async (request) => {
        return providers.update(workspaceOf(request).id, request.params.guid, request.body);
      },
    );
    app.delete('/providers/:guid', { schema: { tags, params: guidParams } }, async (request) => {
      return providers.remove(workspaceOf(request).id, request.params.guid);
    });

    app.post('/models', { schema: { tags, body: createModelBody } }, async (request, reply) => {
      return reply.status(201).send(await providers.createModel(workspaceOf(request).id, request.body));
    });
    app.get('/models', { schema: { tags, querystring: paginationQuery } }, async (request) => {
      const { rows, total } = await providers.listModels(workspaceOf(request).id, request.query);
      return listEnvelope(rows, total, request.query);
    });
    app.get('/models/:guid', { schema: { tags, params: guidParams } }, async (request) => {
      return providers.getModel(workspaceOf(request).id, request.params.guid);
    });
    app.delete('/models/:guid', { schema: { tags, params: guidParams } }, async (request) => {
      return providers.removeModel(workspaceOf(request).id, request.params.guid);
    });
  };
}
