import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guidParams } from '../../../core/guid.js';
import { listEnvelope } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { workspaceOf } from '../../../http/authentication.js';
import { byGuid } from '../../../http/by-guid.js';
import { presentSession } from './presenters.js';
import { removedSessionResponse, sessionResponse } from './responses.js';
import { createSessionBody, sessionListQuery, updateSessionBody } from './schemas.js';
import type { SessionService } from './service.js';

export function sessionRoutes(sessions: SessionService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['sessions'];

    app.post(
      '/sessions',
      { schema: { 'x-right': 'run', tags, body: createSessionBody, response: { 201: sessionResponse } } },
      async (request, reply) => {
        return reply
          .status(201)
          .send(presentSession(await sessions.create(workspaceOf(request).id, request.body)));
      },
    );

    app.get(
      '/sessions',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: sessionListQuery,
          response: { 200: listResponse(sessionResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await sessions.list(
          workspaceOf(request).id,
          request.query,
          request.query.extUserId,
        );
        return listEnvelope(rows.map(presentSession), total, request.query);
      },
    );

    app.get(
      '/sessions/:guid',
      byGuid('read_runs', tags, { response: sessionResponse }, async (workspaceId, guid) =>
        presentSession(await sessions.require(workspaceId, guid)),
      ),
    );

    app.put(
      '/sessions/:guid',
      byGuid(
        'run',
        tags,
        { body: updateSessionBody, response: sessionResponse },
        async (workspaceId, guid, body) => presentSession(await sessions.update(workspaceId, guid, body)),
      ),
    );

    app.delete(
      '/sessions/:guid',
      { schema: { 'x-right': 'run', tags, params: guidParams, response: { 200: removedSessionResponse } } },
      async (request) => {
        return {
          ...presentSession(await sessions.remove(workspaceOf(request).id, request.params.guid)),
          deleted: true as const,
        };
      },
    );
  };
}
