import { createOutboundGuard } from '../../../platform/outbound-guard.js';
import { featureModule, handles } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import { createWebhookDrains, deliveryTimeoutMs, webhookDeliveryJob } from './delivery-job.js';
import { createWebhookRepository } from './repository.js';
import { webhookRoutes } from './routes.js';
import { createWebhookService } from './service.js';

/** Of a webhook receiver's answer, only the start is kept (for `last_error`). */
const webhookAnswerLimitBytes = 64 * 1024;

/**
 * Webhooks: the workspace events, written to an outbox in the transaction that makes them and
 * sent from jobs once it commits. This module provides the workspace events every feature emits.
 */
export function createWebhooksModule(parts: ModuleParts) {
  const { config, platform } = parts;
  const repository = createWebhookRepository(parts.database);
  const webhookDrains = createWebhookDrains({
    repository,
    jobs: parts.jobs,
    fetch: parts.outboundFetch(webhookAnswerLimitBytes, deliveryTimeoutMs),
    secretBox: platform.secretBox,
    retryBaseMs: config.webhookRetryBaseMs,
    logger: parts.logger('webhooks'),
  });
  const webhooks = createWebhookService({
    repository,
    drains: webhookDrains,
    secretBox: platform.secretBox,
    guard: createOutboundGuard({ allow: config.outboundAllow, timeoutMs: deliveryTimeoutMs }),
    webhooksPerWorkspace: config.webhooksPerWorkspace,
    afterCommit: platform.transactions.afterCommit,
  });
  parts.events.provide(webhooks.emit);
  return featureModule({
    services: { webhooks, webhookDrains },
    routes: { v1: [webhookRoutes(webhooks)] },
    jobs: [handles(webhookDeliveryJob, webhookDrains.handler)],
  });
}

export type WebhooksModule = ReturnType<typeof createWebhooksModule>;
