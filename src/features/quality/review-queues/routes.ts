import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse, removedResponse, successResponse } from '../../../core/wire.js';
import { creatorOf, principalOf, workspaceOf } from '../../../http/authentication.js';
import { byGuid, removalByGuid, removed } from '../../../http/by-guid.js';
import {
  presentItem,
  presentQueue,
  presentReview,
  presentReviewedGeneration,
  presentRule,
} from './presenters.js';
import type { ReviewReportService } from './report.js';
import {
  agreementResponse,
  itemWithReviewsResponse,
  leasedItemResponse,
  progressResponse,
  reviewItemResponse,
  reviewQueueResponse,
  reviewResponse,
  reviewRuleResponse,
  toDatasetResponse,
} from './responses.js';
import type { ReviewingService } from './reviewing.js';
import type { ReviewRuleService } from './rules.js';
import {
  addItemsBody,
  changeQueueBody,
  createQueueBody,
  createRuleBody,
  itemListQuery,
  reviewBody,
  toDatasetBody,
} from './schemas.js';
import type { ReviewQueueService } from './service.js';

const itemParams = z.object({ guid, item: guid });
const ruleParams = z.object({ guid, rule: guid });

export function reviewQueueRoutes(services: {
  queues: ReviewQueueService;
  reviewing: ReviewingService;
  reports: ReviewReportService;
  rules: ReviewRuleService;
}): FastifyPluginAsyncZod {
  const { queues, reviewing, reports, rules } = services;
  return async (app) => {
    const tags = ['review queues'];

    app.post(
      '/review_queues',
      { schema: { 'x-right': 'write', tags, body: createQueueBody, response: { 201: reviewQueueResponse } } },
      async (request, reply) => {
        const queue = await queues.create(workspaceOf(request).id, creatorOf(request), request.body);
        return reply.status(201).send(presentQueue(queue));
      },
    );

    app.get(
      '/review_queues',
      {
        schema: {
          'x-right': 'review',
          tags,
          description: 'Viewers and above see every queue; a reviewer the queues that name them',
          querystring: paginationQuery,
          response: { 200: listResponse(reviewQueueResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await queues.list(
          workspaceOf(request).id,
          principalOf(request),
          request.query,
        );
        return listEnvelope(rows.map(presentQueue), total, request.query);
      },
    );

    app.get(
      '/review_queues/:guid',
      byGuid('review', tags, { response: reviewQueueResponse }, async (workspaceId, id, _body, request) =>
        presentQueue(await queues.withCounts(await queues.open(workspaceId, id, principalOf(request)))),
      ),
    );

    app.put(
      '/review_queues/:guid',
      byGuid(
        'write',
        tags,
        { body: changeQueueBody, response: reviewQueueResponse },
        async (workspaceId, id, body) => presentQueue(await queues.change(workspaceId, id, body)),
      ),
    );

    app.delete(
      '/review_queues/:guid',
      removalByGuid('write', tags, (workspaceId, id) => queues.remove(workspaceId, id)),
    );

    app.post(
      '/review_queues/:guid/items',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: z.object({ guid }),
          body: addItemsBody,
          response: { 201: z.strictObject({ added: z.number().int() }) },
        },
      },
      async (request, reply) => {
        const added = await queues.addItems(workspaceOf(request).id, request.params.guid, request.body.data);
        return reply.status(201).send(added);
      },
    );

    app.get(
      '/review_queues/:guid/items',
      {
        schema: {
          'x-right': 'review',
          tags,
          params: z.object({ guid }),
          querystring: itemListQuery,
          response: { 200: listResponse(reviewItemResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await queues.listItems(
          workspaceOf(request).id,
          request.params.guid,
          principalOf(request),
          request.query.status,
          request.query,
        );
        return listEnvelope(rows.map(presentItem), total, request.query);
      },
    );

    app.post(
      '/review_queues/:guid/next',
      {
        schema: {
          'x-right': 'review',
          tags,
          description: 'Leases the next item for the caller; 204 when nothing is left for them',
          params: z.object({ guid }),
          response: { 200: leasedItemResponse, 204: z.null().describe('Nothing is left for this reviewer') },
        },
      },
      async (request, reply) => {
        const leased = await reviewing.next(
          workspaceOf(request).id,
          request.params.guid,
          principalOf(request),
        );
        if (!leased) return reply.status(204).send(null);
        return {
          item: presentItem(leased.item),
          lease_expires_at: leased.item.leaseExpiresAt,
          generation: presentReviewedGeneration(leased.generation),
        };
      },
    );

    app.get(
      '/review_queues/:guid/items/:item',
      {
        schema: { 'x-right': 'review', tags, params: itemParams, response: { 200: itemWithReviewsResponse } },
      },
      async (request) => {
        const { guid: queueId, item: itemId } = request.params;
        const found = await reviewing.item(workspaceOf(request).id, queueId, itemId, principalOf(request));
        return {
          ...presentItem(found.item),
          generation: presentReviewedGeneration(found.generation),
          reviews: found.reviews.map(presentReview),
        };
      },
    );

    app.post(
      '/review_queues/:guid/items/:item/reviews',
      {
        schema: {
          'x-right': 'review',
          tags,
          params: itemParams,
          body: reviewBody,
          response: { 201: reviewResponse },
        },
      },
      async (request, reply) => {
        const { guid: queueId, item: itemId } = request.params;
        const review = await reviewing.review(
          workspaceOf(request).id,
          queueId,
          itemId,
          principalOf(request),
          request.body,
        );
        return reply.status(201).send(presentReview(review));
      },
    );

    app.post(
      '/review_queues/:guid/items/:item/release',
      { schema: { 'x-right': 'review', tags, params: itemParams, response: { 200: successResponse } } },
      async (request) => {
        const { guid: queueId, item: itemId } = request.params;
        await reviewing.release(workspaceOf(request).id, queueId, itemId, principalOf(request));
        return { status: 'success' as const };
      },
    );

    app.post(
      '/review_queues/:guid/items/:item/to_dataset',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: itemParams,
          body: toDatasetBody,
          response: { 201: toDatasetResponse },
        },
      },
      async (request, reply) => {
        const { guid: queueId, item: itemId } = request.params;
        const added = await reviewing.toDataset(workspaceOf(request).id, queueId, itemId, request.body);
        return reply.status(201).send(added);
      },
    );

    app.get(
      '/review_queues/:guid/progress',
      byGuid('read', tags, { response: progressResponse }, (workspaceId, id) =>
        reports.progress(workspaceId, id),
      ),
    );

    app.get(
      '/review_queues/:guid/agreement',
      byGuid('read', tags, { response: agreementResponse }, async (workspaceId, id) => ({
        questions: await reports.agreement(workspaceId, id),
      })),
    );

    app.post(
      '/review_queues/:guid/rules',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: z.object({ guid }),
          body: createRuleBody,
          response: { 201: reviewRuleResponse },
        },
      },
      async (request, reply) => {
        const rule = await rules.create(
          workspaceOf(request).id,
          request.params.guid,
          creatorOf(request),
          request.body,
        );
        return reply.status(201).send(presentRule(rule));
      },
    );

    app.get(
      '/review_queues/:guid/rules',
      byGuid('read', tags, { response: z.array(reviewRuleResponse) }, async (workspaceId, id) =>
        (await rules.list(workspaceId, id)).map(presentRule),
      ),
    );

    app.delete(
      '/review_queues/:guid/rules/:rule',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: ruleParams,
          response: { 200: removedResponse },
        },
      },
      async (request) => {
        await rules.remove(workspaceOf(request).id, request.params.guid, request.params.rule);
        return removed(request.params.rule);
      },
    );
  };
}
