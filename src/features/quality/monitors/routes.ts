import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guid } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { creatorOf, workspaceOf } from '../../../http/authentication.js';
import { byGuid, removalByGuid } from '../../../http/by-guid.js';
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
      byGuid('read', tags, { response: monitorResponse }, async (workspaceId, guid) =>
        presentMonitor(await monitors.require(workspaceId, guid)),
      ),
    );

    app.put(
      '/monitors/:guid',
      byGuid(
        'write',
        tags,
        { body: changeMonitorBody, response: monitorResponse },
        async (workspaceId, guid, body) => presentMonitor(await monitors.change(workspaceId, guid, body)),
      ),
    );

    app.delete(
      '/monitors/:guid',
      removalByGuid('write', tags, (workspaceId, guid) => monitors.remove(workspaceId, guid)),
    );
  };
}
