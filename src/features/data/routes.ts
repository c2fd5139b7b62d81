import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guidParams } from '../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../core/pagination.js';
import { workspaceOf } from '../../http/authentication.js';
import { bareList } from '../../http/bare-list.js';
import { presentGeneration, presentGenerationWithFeedback, presentStatistics } from './presenters.js';
import {
  dataSearchQuery,
  logDataBatchBody,
  logDataBody,
  statisticsQuery,
  updateDataBody,
} from './schemas.js';
import type { DataService } from './service.js';
import type { StatisticsService } from './statistics.js';

export function dataRoutes(data: DataService, statistics: StatisticsService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['data'];

    app.get('/statistics', { schema: { tags, querystring: statisticsQuery } }, async (request) => {
      const { from, to, action } = request.query;
      const summary = await statistics.summary(workspaceOf(request).id, {
        from: from === undefined ? undefined : new Date(from),
        to: to === undefined ? undefined : new Date(to),
        actionId: action,
      });
      return presentStatistics(summary);
    });

    app.get(
      '/data',
      { schema: { tags, querystring: paginationQuery.extend(dataSearchQuery.shape) } },
      async (request) => {
        const { query } = request;
        // `provider/name`, as Actions name models, or the stored name alone.
        const [modelProvider, model] = query.model?.includes('/')
          ? [query.model.slice(0, query.model.indexOf('/')), query.model.slice(query.model.indexOf('/') + 1)]
          : [undefined, query.model];
        const { rows, total } = await data.search(
          workspaceOf(request).id,
          {
            actionId: query.action,
            sessionId: query.session,
            experimentId: query.experiment,
            model,
            modelProvider,
            environment: query.environment,
            version: query.version,
            source: query.source,
            from: query.from === undefined ? undefined : new Date(query.from),
            to: query.to === undefined ? undefined : new Date(query.to),
            text: query.q,
          },
          query,
        );
        return listEnvelope(rows.map(presentGeneration), total, query);
      },
    );

    app.get('/data/:guid', { schema: { tags, params: guidParams } }, async (request) => {
      return presentGenerationWithFeedback(await data.get(workspaceOf(request).id, request.params.guid));
    });

    app.put(
      '/data/:guid',
      { schema: { tags, params: guidParams, body: updateDataBody } },
      async (request) => {
        return presentGeneration(
          await data.update(workspaceOf(request).id, request.params.guid, request.body),
        );
      },
    );

    app.delete('/data/:guid', { schema: { tags, params: guidParams } }, async (request) => {
      return presentGeneration(await data.remove(workspaceOf(request).id, request.params.guid));
    });

    app.post('/data', { schema: { tags, body: logDataBody } }, async (request, reply) => {
      return reply.status(201).send(presentGeneration(await data.log(workspaceOf(request).id, request.body)));
    });

    app.post('/data/batch', { schema: { tags, body: logDataBatchBody } }, async (request, reply) => {
      const ids = await data.logMany(workspaceOf(request).id, request.body.records);
      return reply.status(201).send({ data: ids.map((guid) => ({ guid })) });
    });

    // Bare arrays, as the official SDK's actions.getData and apps.getData read them (docs/sdk-compatibility.md).
    app.get(
      '/actions/:guid/data',
      { schema: { tags: ['actions', 'data'], params: guidParams, querystring: paginationQuery } },
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
      { schema: { tags: ['apps', 'data'], params: guidParams, querystring: paginationQuery } },
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
