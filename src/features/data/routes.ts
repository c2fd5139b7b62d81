import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { workspaceOf } from '../../http/authentication.js';
import { bareList, paginationQuery } from '../../http/pagination.js';
import { guidParams } from '../../http/params.js';
import { logDataBatchBody, logDataBody, updateDataBody } from './schemas.js';
import type { DataService } from './service.js';

export function dataRoutes(data: DataService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['data'];

    app.get('/data/:guid', { schema: { tags, params: guidParams } }, async (request) => {
      return data.get(workspaceOf(request).id, request.params.guid);
    });

    app.put(
      '/data/:guid',
      { schema: { tags, params: guidParams, body: updateDataBody } },
      async (request) => {
        return data.update(workspaceOf(request).id, request.params.guid, request.body);
      },
    );

    app.delete('/data/:guid', { schema: { tags, params: guidParams } }, async (request) => {
      return data.remove(workspaceOf(request).id, request.params.guid);
    });

    app.post('/data', { schema: { tags, body: logDataBody } }, async (request, reply) => {
      return reply.status(201).send(await data.log(workspaceOf(request).id, request.body));
    });

    app.post('/data/batch', { schema: { tags, body: logDataBatchBody } }, async (request, reply) => {
      return reply.status(201).send(await data.logMany(workspaceOf(request).id, request.body.records));
    });

    // Bare arrays, as the official SDK's actions.getData and apps.getData read them (CONTRACT §5, §12).
    app.get(
      '/actions/:guid/data',
      { schema: { tags: ['actions', 'data'], params: guidParams, querystring: paginationQuery } },
      async (request, reply) => {
        const { rows, total } = await data.listForAction(
          workspaceOf(request).id,
          request.params.guid,
          request.query,
        );
        return bareList(reply, rows, total);
      },
    );

    app.get(
      '/apps/:guid/data',
      { schema: { tags: ['apps', 'data'], params: guidParams, querystring: paginationQuery } },
      async (request, reply) => {
        const { rows, total } = await data.listForApp(
          workspaceOf(request).id,
          request.params.guid,
          request.query,
        );
        return bareList(reply, rows, total);
      },
    );
  };
}
