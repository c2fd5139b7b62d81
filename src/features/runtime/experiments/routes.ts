import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guidParams } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { workspaceOf } from '../../../http/authentication.js';
import { byGuid } from '../../../http/by-guid.js';
import type { IdempotentRequests } from '../runs/index.js';
import { callerOf, idempotencyHeaders, runInputFromWire, runModeOf } from '../runs/index.js';
import {
  experimentChangesFromWire,
  newExperimentFromWire,
  presentExperiment,
  presentExperimentResults,
} from './presenters.js';
import {
  experimentResponse,
  experimentResultsResponse,
  experimentRunResponse,
  removedExperimentResponse,
} from './responses.js';
import { createExperimentBody, experimentRunBody, updateExperimentBody } from './schemas.js';
import type { ExperimentService } from './service.js';

export function experimentRoutes(
  experiments: ExperimentService,
  idempotent: IdempotentRequests,
): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['experiments'];

    app.post(
      '/experiments',
      {
        schema: {
          'x-right': 'write',
          tags,
          body: createExperimentBody,
          response: { 201: experimentResponse },
        },
      },
      async (request, reply) => {
        return reply
          .status(201)
          .send(
            presentExperiment(
              await experiments.create(workspaceOf(request).id, newExperimentFromWire(request.body)),
            ),
          );
      },
    );

    app.get(
      '/experiments',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery,
          response: { 200: listResponse(experimentResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await experiments.list(workspaceOf(request).id, request.query);
        return listEnvelope(rows.map(presentExperiment), total, request.query);
      },
    );

    app.get(
      '/experiments/:guid',
      byGuid('read', tags, { response: experimentResponse }, async (workspaceId, guid) =>
        presentExperiment(await experiments.require(workspaceId, guid)),
      ),
    );

    app.put(
      '/experiments/:guid',
      byGuid(
        'write',
        tags,
        { body: updateExperimentBody, response: experimentResponse },
        async (workspaceId, guid, body) =>
          presentExperiment(await experiments.update(workspaceId, guid, experimentChangesFromWire(body))),
      ),
    );

    app.delete(
      '/experiments/:guid',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: guidParams,
          response: { 200: removedExperimentResponse },
        },
      },
      async (request) => {
        const removed = await experiments.remove(workspaceOf(request).id, request.params.guid);
        return { ...presentExperiment(removed), deleted: true as const };
      },
    );

    app.post(
      '/experiments/:guid/prompt',
      {
        schema: {
          'x-right': 'run',
          tags,
          params: guidParams,
          body: experimentRunBody,
          headers: idempotencyHeaders,
          response: { 200: experimentRunResponse },
        },
      },
      async (request) => {
        const caller = callerOf(workspaceOf(request), request.headers.traceparent);
        const { guid } = request.params;
        const mode = runModeOf(request.body);
        return idempotent.once(
          caller.workspaceId,
          request.headers['idempotency-key'],
          ['experiment', guid, request.body],
          () =>
            experiments.run(caller, guid, {
              input: runInputFromWire(request.body),
              mode,
              forceAction: request.body.force_action,
            }),
        );
      },
    );

    app.get(
      '/experiments/:guid/results',
      {
        schema: { 'x-right': 'read', tags, params: guidParams, response: { 200: experimentResultsResponse } },
      },
      async (request) => {
        return presentExperimentResults(
          await experiments.results(workspaceOf(request).id, request.params.guid),
        );
      },
    );
  };
}
