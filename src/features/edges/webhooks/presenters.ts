import type { DeliveryRow, WebhookRow } from './repository.js';
import type { WebhookDeliveryResponse, WebhookResponse, WebhookWithSecretResponse } from './responses.js';
import type { WebhookWithSecret } from './service.js';

export function presentWebhook(row: WebhookRow): WebhookResponse {
  return {
    guid: row.id,
    url: row.url,
    events: row.events as WebhookResponse['events'],
    description: row.description,
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
  };
}

export function presentWebhookWithSecret({ webhook, secret }: WebhookWithSecret): WebhookWithSecretResponse {
  return { ...presentWebhook(webhook), secret };
}

export function presentDelivery(row: DeliveryRow): WebhookDeliveryResponse {
  return {
    guid: row.id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    response_status: row.responseStatus,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    next_attempt_at: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
  };
}
