import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guidParams } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { workspaceInPath, workspaceOf } from '../../../http/authentication.js';
import { bareList } from '../../../http/bare-list.js';
import { byGuid, removalByGuid } from '../../../http/by-guid.js';
import { appFieldsFromWire, presentApp } from './presenters.js';
import { appResponse } from './responses.js';
import { createAppBody, updateAppBody } from './schemas.js';
import type { AppService } from './service.js';

export function appRoutes(apps: AppService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['apps'];

    app.post(
      '/apps',
      { schema: { 'x-right': 'write', tags, body: createAppBody, response: { 201: appResponse } } },
      async (request, reply) => {
        return reply
          .status(201)
          .send(presentApp(await apps.create(workspaceOf(request).id, appFieldsFromWire(request.body))));
      },
    );

    app.get(
      '/apps',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery,
          response: { 200: listResponse(appResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await apps.list(workspaceOf(request).id, request.query);
        return listEnvelope(rows.map(presentApp), total, request.query);
      },
    );

    app.get(
      '/apps/:guid',
      byGuid('read', tags, { response: appResponse }, async (workspaceId, guid) =>
        presentApp(await apps.require(workspaceId, guid)),
      ),
    );

    app.put(
      '/apps/:guid',
      byGuid('write', tags, { body: updateAppBody, response: appResponse }, async (workspaceId, guid, body) =>
        presentApp(await apps.update(workspaceId, guid, appFieldsFromWire(body))),
      ),
    );

    app.delete(
      '/apps/:guid',
      removalByGuid('write', tags, (workspaceId, guid) => apps.remove(workspaceId, guid)),
    );
  };
}

/**
 * The workspace's Apps as a bare array under `/workspace/:guid/apps` (the official SDK's
 * getApps reads them so); skip and limit apply.
 */
export function workspaceAppListRoute(apps: AppService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/workspace/:guid/apps',
      {
        schema: {
          'x-right': 'read',
          tags: ['workspaces'],
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: z.array(appResponse) },
        },
      },
      async (request, reply) => {
        const { rows, total } = await apps.list(workspaceInPath(request), request.query);
        return bareList(reply, rows.map(presentApp), total);
      },
    );
  };
}
