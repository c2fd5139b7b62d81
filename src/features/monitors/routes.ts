import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guid, guidParams } from '../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../core/pagination.js';
import { listResponse, removedResponse } from '../../core/wire.js';
import { creatorOf, workspaceOf } from '../../http/authentication.js';
import { removed } from '../../http/removal.js';
import { presentMonitor } from './presenters.js';
import { monitorResponse } from './responses.js';
import { changeMonitorBody, createMonitorBody } from './schemas.js';
import type { MonitorService } from './service.js';

export function monitorRoutes(monitors: MonitorService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['monitors'];

    app.post(
      '/monitors',
      { schema: { 'x-right': 'write', tags, body: createMonitorBody, response: { 201: monitorResponse } } },
      async (request, reply) => {
        const monitor = await monitors.create(workspaceOf(request).id, creatorOf(request), request.body);
        return reply.status(201).send(presentMonitor(monitor));
      },
    );

    app.get(
      '/monitors',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery.extend({ action: guid.optional() }),
          response: { 200: listResponse(monitorResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await monitors.list(
          workspaceOf(request).id,
          request.query,
          request.query.action,
        );
        return listEnvelope(rows.map(presentMonitor), total, request.query);
      },
    );

    app.get(
      '/monitors/:guid',
      { schema: { 'x-right': 'read', tags, params: guidParams, response: { 200: monitorResponse } } },
      async (request) => presentMonitor(await monitors.require(workspaceOf(request).id, request.params.guid)),
    );

    app.put(
      '/monitors/:guid',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: guidParams,
          body: changeMonitorBody,
          response: { 200: monitorResponse },
        },
      },
      async (request) =>
        presentMonitor(await monitors.change(workspaceOf(request).id, request.params.guid, request.body)),
    );

    app.delete(
      '/monitors/:guid',
      { schema: { 'x-right': 'write', tags, params: guidParams, response: { 200: removedResponse } } },
      async (request) => {
        await monitors.remove(workspaceOf(request).id, request.params.guid);
        return removed(request.params.guid);
      },
    );
  };
}
