import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guidParams } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { workspaceOf } from '../../../http/authentication.js';
import { removalByGuid } from '../../../http/by-guid.js';
import { presentDelivery, presentWebhook, presentWebhookWithSecret } from './presenters.js';
import { webhookDeliveryResponse, webhookResponse, webhookWithSecretResponse } from './responses.js';
import { createWebhookBody, deliveryParams, updateWebhookBody } from './schemas.js';
import type { WebhookService } from './service.js';

/** Every webhook route needs `manage` (admins and owners): a webhook sends the workspace's events out. */
export function webhookRoutes(webhooks: WebhookService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['webhooks'];
    const one = { 200: webhookResponse };

    app.post(
      '/webhooks',
      {
        schema: {
          'x-right': 'manage',
          tags,
          description: 'The answer is the only one, with `rotate_secret`, that carries the signing secret.',
          body: createWebhookBody,
          response: { 201: webhookWithSecretResponse },
        },
      },
      async (request, reply) => {
        const created = await webhooks.create(workspaceOf(request).id, request.body);
        return reply.status(201).send(presentWebhookWithSecret(created));
      },
    );

    app.get(
      '/webhooks',
      {
        schema: {
          'x-right': 'manage',
          tags,
          querystring: paginationQuery,
          response: { 200: listResponse(webhookResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await webhooks.list(workspaceOf(request).id, request.query);
        return listEnvelope(rows.map(presentWebhook), total, request.query);
      },
    );

    app.get(
      '/webhooks/:guid',
      { schema: { 'x-right': 'manage', tags, params: guidParams, response: one } },
      async (request) => presentWebhook(await webhooks.get(workspaceOf(request).id, request.params.guid)),
    );

    app.put(
      '/webhooks/:guid',
      { schema: { 'x-right': 'manage', tags, params: guidParams, body: updateWebhookBody, response: one } },
      async (request) =>
        presentWebhook(await webhooks.update(workspaceOf(request).id, request.params.guid, request.body)),
    );

    app.delete(
      '/webhooks/:guid',
      removalByGuid('manage', tags, (workspaceId, guid) => webhooks.remove(workspaceId, guid)),
    );

    app.post(
      '/webhooks/:guid/rotate_secret',
      {
        schema: {
          'x-right': 'manage',
          tags,
          description: 'A new signing secret; the old one signs nothing from now on.',
          params: guidParams,
          response: { 200: webhookWithSecretResponse },
        },
      },
      async (request) =>
        presentWebhookWithSecret(await webhooks.rotateSecret(workspaceOf(request).id, request.params.guid)),
    );

    app.post(
      '/webhooks/:guid/test',
      {
        schema: {
          'x-right': 'manage',
          tags,
          description: 'Sends a `webhook.test` event to this webhook; answers its delivery.',
          params: guidParams,
          response: { 202: webhookDeliveryResponse },
        },
      },
      async (request, reply) => {
        const delivery = await webhooks.test(workspaceOf(request).id, request.params.guid);
        return reply.status(202).send(presentDelivery(delivery));
      },
    );

    app.get(
      '/webhooks/:guid/deliveries',
      {
        schema: {
          'x-right': 'manage',
          tags,
          description: 'Newest first.',
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: listResponse(webhookDeliveryResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await webhooks.deliveries(
          workspaceOf(request).id,
          request.params.guid,
          request.query,
        );
        return listEnvelope(rows.map(presentDelivery), total, request.query);
      },
    );

    app.post(
      '/webhooks/:guid/deliveries/:delivery/redeliver',
      {
        schema: {
          'x-right': 'manage',
          tags,
          description:
            'Sends a succeeded or failed delivery again (same `webhook-id`), after the pending ones, with 24 hours of retries of its own; a pending one is a 409.',
          params: deliveryParams,
          response: { 202: webhookDeliveryResponse },
        },
      },
      async (request, reply) => {
        const { guid, delivery } = request.params;
        const redelivered = await webhooks.redeliver(workspaceOf(request).id, guid, delivery);
        return reply.status(202).send(presentDelivery(redelivered));
      },
    );
  };
}
