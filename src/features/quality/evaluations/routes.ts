import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid, guidParams } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { creatorOf, workspaceOf } from '../../../http/authentication.js';
import { byGuid } from '../../../http/by-guid.js';
import { presentComparison, presentEvaluation, presentResult } from './presenters.js';
import { comparisonResponse, evaluationResponse, evaluationResultResponse } from './responses.js';
import { compareQuery, resultsQuery, startEvaluationBody, startMatrixBody } from './schemas.js';
import type { EvaluationService } from './service.js';

export function evaluationRoutes(evaluations: EvaluationService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['evaluations'];

    app.post(
      '/evaluations',
      {
        schema: {
          'x-right': 'write',
          tags,
          body: startEvaluationBody,
          response: { 202: evaluationResponse },
        },
      },
      async (request, reply) => {
        const started = await evaluations.start(workspaceOf(request).id, creatorOf(request), request.body);
        return reply.status(202).send(presentEvaluation(started));
      },
    );

    app.post(
      '/evaluations/matrix',
      {
        schema: {
          'x-right': 'write',
          tags,
          body: startMatrixBody,
          response: { 202: z.strictObject({ data: z.array(evaluationResponse) }) },
        },
      },
      async (request, reply) => {
        const started = await evaluations.startMatrix(
          workspaceOf(request).id,
          creatorOf(request),
          request.body,
        );
        return reply.status(202).send({ data: started.map(presentEvaluation) });
      },
    );

    app.get(
      '/evaluations',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery.extend({ action: guid.optional() }),
          response: { 200: listResponse(evaluationResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await evaluations.list(workspaceOf(request).id, request.query, {
          actionId: request.query.action,
        });
        return listEnvelope(rows.map(presentEvaluation), total, request.query);
      },
    );

    app.get(
      '/evaluations/compare',
      {
        schema: { 'x-right': 'read', tags, querystring: compareQuery, response: { 200: comparisonResponse } },
      },
      async (request) => {
        const { base, candidate, limit } = request.query;
        return presentComparison(await evaluations.compare(workspaceOf(request).id, base, candidate, limit));
      },
    );

    app.get(
      '/evaluations/:guid',
      byGuid('read', tags, { response: evaluationResponse }, async (workspaceId, guid) =>
        presentEvaluation(await evaluations.get(workspaceId, guid)),
      ),
    );

    app.get(
      '/evaluations/:guid/results',
      {
        schema: {
          'x-right': 'read',
          tags,
          params: guidParams,
          querystring: resultsQuery,
          response: { 200: listResponse(evaluationResultResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await evaluations.results(
          workspaceOf(request).id,
          request.params.guid,
          request.query,
        );
        return listEnvelope(rows.map(presentResult), total, request.query);
      },
    );

    app.post(
      '/evaluations/:guid/cancel',
      byGuid('write', tags, { response: evaluationResponse }, async (workspaceId, guid) =>
        presentEvaluation(await evaluations.cancel(workspaceId, guid)),
      ),
    );
  };
}
