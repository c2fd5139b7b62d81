import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';
import { webhookDeliveryStatuses, webhookEventTypes } from '../../../core/wire-values.js';

export const webhookResponse = z
  .strictObject({
    guid,
    url: z.string(),
    events: z.array(z.enum([...webhookEventTypes, '*'])),
    description: z.string(),
    enabled: z.boolean(),
    created_at: timestamp,
  })
  .meta({ id: 'Webhook' });

export const webhookWithSecretResponse = webhookResponse
  .extend({
    secret: z
      .string()
      .describe(
        'The signing secret (`whsec_…`): answered only when the webhook is made or its secret rotated',
      ),
  })
  .meta({ id: 'WebhookWithSecret' });

export const webhookDeliveryResponse = z
  .strictObject({
    guid: guid.describe('The delivery: the `webhook-id` header, the same on every attempt'),
    event: z.string(),
    status: z.enum(webhookDeliveryStatuses),
    attempts: z.number().int(),
    response_status: z.number().int().nullable(),
    last_error: z.string().nullable(),
    created_at: timestamp,
    next_attempt_at: timestamp.nullable().describe('When a pending delivery is tried next'),
  })
  .meta({ id: 'WebhookDelivery' });

export type WebhookResponse = z.output<typeof webhookResponse>;
export type WebhookWithSecretResponse = z.output<typeof webhookWithSecretResponse>;
export type WebhookDeliveryResponse = z.output<typeof webhookDeliveryResponse>;
