export {
  createWebhookDrains,
  deliveryTimeoutMs,
  type WebhookDrains,
  webhookDeliveryJob,
} from './delivery-job.js';
export { createWebhookRepository } from './repository.js';
export { createWebhookService, type WebhookService } from './service.js';
