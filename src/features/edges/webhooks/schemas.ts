import { z } from 'zod';
import { guid } from '../../../core/guid.js';
import { webhookEventTypes } from '../../../core/wire-values.js';

const url = z.string().min(1).max(2_000).describe('http(s), public unless LECTERN_OUTBOUND_ALLOW allows it');

const events = z
  .array(z.enum([...webhookEventTypes, '*']))
  .min(1, 'name at least one event, or "*" for all of them')
  .max(webhookEventTypes.length + 1);

export const createWebhookBody = z.strictObject({
  url,
  events,
  description: z.string().max(1_000).optional(),
  enabled: z.boolean().optional(),
});

export const updateWebhookBody = z.strictObject({
  url: url.optional(),
  events: events.optional(),
  description: z.string().max(1_000).optional(),
  enabled: z.boolean().optional(),
});

export const deliveryParams = z.object({ guid, delivery: guid });

export type CreateWebhookInput = z.infer<typeof createWebhookBody>;
export type UpdateWebhookInput = z.infer<typeof updateWebhookBody>;
