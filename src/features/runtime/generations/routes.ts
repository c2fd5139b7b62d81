import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guidParams } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { ValidationError } from '../../../errors.js';
import { workspaceOf } from '../../../http/authentication.js';
import { bareList } from '../../../http/bare-list.js';
import { byGuid } from '../../../http/by-guid.js';
import { exportLines } from './export.js';
import {
  generationChangesFromWire,
  loggedGenerationFromWire,
  presentGeneration,
  presentGenerationWithFeedback,
  presentListedGeneration,
  presentStatistics,
} from './presenters.js';
import type { GenerationFilter } from './repository.js';
import {
  exportResponse,
  generationResponse,
  generationWithFeedbackResponse,
  listedGenerationResponse,
  loggedBatchResponse,
  statisticsResponse,
} from './responses.js';
import {
  type DataSearchQuery,
  dataExportQuery,
  dataSearchQuery,
  logDataBatchBody,
  logDataBody,
  statisticsQuery,
  updateDataBody,
} from './schemas.js';
import type { GenerationService } from './service.js';
import type { StatisticsService } from './statistics.js';

/** The list filter of `GET /v1/data` and its export, from their query string. */
function generationFilterOf(query: DataSearchQuery): GenerationFilter {
  // `provider/name`, as Actions name models, or the stored name alone.
  const slash = query.model?.indexOf('/') ?? -1;
  if ((query.score_below === undefined) !== (query.evaluator === undefined))
    throw new ValidationError('score_below', 'goes with evaluator: the evaluator whose score is compared');
  return {
    actionId: query.action,
    sessionId: query.session,
    experimentId: query.experiment,
    model: slash >= 0 ? query.model!.slice(slash + 1) : query.model,
    modelProvider: slash >= 0 ? query.model!.slice(0, slash) : undefined,
    environment: query.environment,
    version: query.version,
    source: query.source,
    from: query.from === undefined ? undefined : new Date(query.from),
    to: query.to === undefined ? undefined : new Date(query.to),
    text: query.q,
    feedbackValue: query.feedback,
    score:
      query.evaluator === undefined ? undefined : { evaluatorId: query.evaluator, below: query.score_below! },
  };
}

export function generationRoutes(
  data: GenerationService,
  statistics: StatisticsService,
): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['data'];

    app.get(
      '/statistics',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: statisticsQuery,
          response: { 200: statisticsResponse },
        },
      },
      async (request) => {
        const { from, to, action } = request.query;
        const summary = await statistics.summary(workspaceOf(request).id, {
          from: from === undefined ? undefined : new Date(from),
          to: to === undefined ? undefined : new Date(to),
          actionId: action,
        });
        return presentStatistics(summary);
      },
    );

    app.get(
      '/data',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery.extend(dataSearchQuery.shape),
          response: { 200: listResponse(listedGenerationResponse) },
        },
      },
      async (request) => {
        const { query } = request;
        const { rows, total } = await data.search(workspaceOf(request).id, generationFilterOf(query), query);
        return listEnvelope(rows.map(presentListedGeneration), total, query);
      },
    );

    app.get(
      '/data/:guid',
      {
        schema: {
          'x-right': 'read_runs',
          tags,
          params: guidParams,
          response: { 200: generationWithFeedbackResponse },
        },
      },
      async (request) => {
        return presentGenerationWithFeedback(await data.get(workspaceOf(request).id, request.params.guid));
      },
    );

    app.put(
      '/data/:guid',
      byGuid(
        'write',
        tags,
        { body: updateDataBody, response: generationResponse },
        async (workspaceId, guid, body) =>
          presentGeneration(await data.update(workspaceId, guid, generationChangesFromWire(body))),
      ),
    );

    app.delete(
      '/data/:guid',
      { schema: { 'x-right': 'write', tags, params: guidParams, response: { 200: generationResponse } } },
      async (request) => {
        return presentGeneration(await data.remove(workspaceOf(request).id, request.params.guid));
      },
    );

    // Registered before /data/:guid; streamed as rows are read, so its size is not bounded by memory.
    app.get(
      '/data/export',
      {
        schema: { 'x-right': 'read', tags, querystring: dataExportQuery, response: { 200: exportResponse } },
      },
      async (request, reply) => {
        const { format, ...filter } = request.query;
        const rows = data.scan(workspaceOf(request).id, generationFilterOf(filter));
        const day = new Date().toISOString().slice(0, 10);
        return reply
          .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
          .header('content-disposition', `attachment; filename="generations-${day}.${format}"`)
          .header('cache-control', 'no-store')
          .send(Readable.from(exportLines(rows, format)));
      },
    );

    app.post(
      '/data',
      { schema: { 'x-right': 'run', tags, body: logDataBody, response: { 201: generationResponse } } },
      async (request, reply) => {
        return reply
          .status(201)
          .send(
            presentGeneration(
              await data.log(workspaceOf(request).id, loggedGenerationFromWire(request.body)),
            ),
          );
      },
    );

    app.post(
      '/data/batch',
      { schema: { 'x-right': 'run', tags, body: logDataBatchBody, response: { 201: loggedBatchResponse } } },
      async (request, reply) => {
        const ids = await data.logMany(
          workspaceOf(request).id,
          request.body.records.map(loggedGenerationFromWire),
        );
        return reply.status(201).send({ data: ids.map((guid) => ({ guid })) });
      },
    );

    // Bare arrays, as the official SDK's actions.getData and apps.getData read them (docs/sdk-compatibility.md).
    app.get(
      '/actions/:guid/data',
      {
        schema: {
          'x-right': 'read',
          tags: ['actions', 'data'],
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: z.array(generationResponse) },
        },
      },
      async (request, reply) => {
        const { rows, total } = await data.listForAction(
          workspaceOf(request).id,
          request.params.guid,
          request.query,
        );
        return bareList(reply, rows.map(presentGeneration), total);
      },
    );

    app.get(
      '/apps/:guid/data',
      {
        schema: {
          'x-right': 'read',
          tags: ['apps', 'data'],
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: z.array(generationResponse) },
        },
      },
      async (request, reply) => {
        const { rows, total } = await data.listForApp(
          workspaceOf(request).id,
          request.params.guid,
          request.query,
        );
        return bareList(reply, rows.map(presentGeneration), total);
      },
    );
  };
}

/** A Session's generations, under the Session's path. */
export function sessionGenerationListRoute(generations: GenerationService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sessions/:guid/data',
      {
        schema: {
          'x-right': 'read_runs',
          tags: ['sessions'],
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: listResponse(generationResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await generations.listForSession(
          workspaceOf(request).id,
          request.params.guid,
          request.query,
        );
        return listEnvelope(rows.map(presentGeneration), total, request.query);
      },
    );
  };
}
