import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { creatorOf, workspaceOf } from '../../../http/authentication.js';
import { byGuid, removalByGuid } from '../../../http/by-guid.js';
import { presentEvaluator } from './presenters.js';
import { evaluatorResponse, scoreResponse } from './responses.js';
import { changeEvaluatorBody, createEvaluatorBody, testEvaluatorBody } from './schemas.js';
import type { EvaluatorService } from './service.js';

export function evaluatorRoutes(evaluators: EvaluatorService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['evaluators'];

    app.post(
      '/evaluators',
      {
        schema: { 'x-right': 'write', tags, body: createEvaluatorBody, response: { 201: evaluatorResponse } },
      },
      async (request, reply) => {
        const evaluator = await evaluators.create(workspaceOf(request).id, creatorOf(request), request.body);
        return reply.status(201).send(presentEvaluator(evaluator));
      },
    );

    app.get(
      '/evaluators',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery,
          response: { 200: listResponse(evaluatorResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await evaluators.list(workspaceOf(request).id, request.query);
        return listEnvelope(rows.map(presentEvaluator), total, request.query);
      },
    );

    // Scores one case, so that an evaluator can be tried before it is saved (or used).
    app.post(
      '/evaluators/test',
      { schema: { 'x-right': 'run', tags, body: testEvaluatorBody, response: { 200: scoreResponse } } },
      async (request) => {
        const { type, config, output, input, expected_output, latency_ms, cost_usd } = request.body;
        const { score, error } = await evaluators.score(
          workspaceOf(request).id,
          { type, config },
          {
            input,
            output,
            expectedOutput: expected_output ?? null,
            latencyMs: latency_ms ?? null,
            costUsd: cost_usd ?? null,
          },
        );
        return { score, error };
      },
    );

    app.get(
      '/evaluators/:guid',
      byGuid('read', tags, { response: evaluatorResponse }, async (workspaceId, guid) =>
        presentEvaluator(await evaluators.require(workspaceId, guid)),
      ),
    );

    app.put(
      '/evaluators/:guid',
      byGuid(
        'write',
        tags,
        { body: changeEvaluatorBody, response: evaluatorResponse },
        async (workspaceId, guid, body) => presentEvaluator(await evaluators.change(workspaceId, guid, body)),
      ),
    );

    app.delete(
      '/evaluators/:guid',
      removalByGuid('write', tags, (workspaceId, guid) => evaluators.remove(workspaceId, guid)),
    );
  };
}
