import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { guidParams } from '../core/guid.js';
import type { Right } from '../core/roles.js';
import { type RemovedResponse, removedResponse } from '../core/wire.js';
import { workspaceOf } from './authentication.js';

/** The answer to a DELETE of a resource addressed by GUID. */
export function removed(guid: string): RemovedResponse {
  return { guid, deleted: true };
}

/**
 * The options of a route on one resource of the caller's workspace, addressed by the GUID in its path
 * (`app.get('/things/:guid', byGuid('read', tags, { response: thingResponse }, …))`): the right it
 * needs, the GUID parameter, the body it takes if any, its answer's schema, and the answer. Most
 * resources read, change and remove alike; a route that needs more of the request (the caller, a
 * query, another status) writes its options out.
 */
export function byGuid<Answer extends z.ZodType, Body extends z.ZodType = z.ZodUndefined>(
  right: Right,
  tags: string[],
  shapes: { response: Answer; body?: Body },
  answer: (
    workspaceId: string,
    guid: string,
    body: z.output<Body>,
    request: FastifyRequest,
  ) => Promise<z.output<Answer>>,
) {
  return {
    schema: {
      'x-right': right,
      tags,
      params: guidParams,
      ...(shapes.body && { body: shapes.body }),
      response: { 200: shapes.response },
    },
    async handler(
      request: FastifyRequest<{ Params: { guid: string }; Body: z.output<Body> }>,
    ): Promise<z.output<Answer>> {
      return answer(workspaceOf(request).id, request.params.guid, request.body as z.output<Body>, request);
    },
  };
}

/** A DELETE by GUID that answers only that the resource is gone: `{ guid, deleted: true }`. */
export function removalByGuid(
  right: Right,
  tags: string[],
  /** `request` tells who removes, for a removal that depends on it. */
  remove: (workspaceId: string, guid: string, request: FastifyRequest) => Promise<unknown>,
) {
  return byGuid(right, tags, { response: removedResponse }, async (workspaceId, guid, _body, request) => {
    await remove(workspaceId, guid, request);
    return removed(guid);
  });
}
