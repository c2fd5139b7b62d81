import { randomUUID } from 'node:crypto';
import type { Page, Pagination } from '../../../core/pagination.js';
import type { WebhookEventType } from '../../../core/wire-values.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../../errors.js';
import type { OutboundGuard } from '../../../platform/outbound-guard.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { WebhookDrains } from './delivery-job.js';
import type { DeliveryRow, WebhookRepository, WebhookRow } from './repository.js';
import type { CreateWebhookInput, UpdateWebhookInput } from './schemas.js';
import { newWebhookSecret } from './signature.js';

/** A webhook as created or given a new secret: the only answers that carry its secret. */
export type WebhookWithSecret = { webhook: WebhookRow; secret: string };

/** What one event tells a webhook: its `data` (docs/webhooks.md#events). */
export type EventData = Record<string, unknown>;

export interface WebhookService {
  create(workspaceId: string, input: CreateWebhookInput): Promise<WebhookWithSecret>;
  get(workspaceId: string, id: string): Promise<WebhookRow>;
  list(workspaceId: string, pagination: Pagination): Promise<Page<WebhookRow>>;
  update(workspaceId: string, id: string, changes: UpdateWebhookInput): Promise<WebhookRow>;
  remove(workspaceId: string, id: string): Promise<void>;
  rotateSecret(workspaceId: string, id: string): Promise<WebhookWithSecret>;
  /** Sends `webhook.test` to this webhook alone; answers its delivery. */
  test(workspaceId: string, id: string): Promise<DeliveryRow>;
  deliveries(workspaceId: string, id: string, pagination: Pagination): Promise<Page<DeliveryRow>>;
  redeliver(workspaceId: string, id: string, deliveryId: string): Promise<DeliveryRow>;
  /**
   * Adds a delivery of the event to each webhook that takes it, in the caller's transaction (the
   * outbox): they are sent once it commits, and never if it rolls back.
   */
  emit(workspaceId: string, type: WebhookEventType, data: EventData): Promise<void>;
  /** Queues a drain for every webhook with pending deliveries: what a worker does as it starts and each minute. */
  resume(): Promise<number>;
}

/** The body every delivery carries: its bytes are what the signature covers. */
function eventBody(type: string, workspaceId: string, data: EventData): string {
  return JSON.stringify({ type, timestamp: new Date().toISOString(), workspace: workspaceId, data });
}

/** The workspace has as many webhooks as it may: one more would multiply every change's POSTs again. */
export class WebhookLimitError extends AppError {
  constructor(limit: number) {
    super(
      409,
      'webhook_limit',
      `This workspace has ${limit} webhooks, the most it may have; delete one before creating another`,
    );
  }
}

export function createWebhookService(dependencies: {
  repository: WebhookRepository;
  drains: WebhookDrains;
  secretBox: SecretBox;
  /** The outbound guard's URL check: a literal address it refuses is refused at once. */
  guard: Pick<OutboundGuard, 'checkUrl'>;
  /**
   * Runs a callback once the caller's transaction has committed (at once outside one). A crash
   * between the commit and the callback loses no delivery: a starting worker, and every worker each
   * minute, resumes the pending ones.
   */
  afterCommit: (callback: () => Promise<unknown>) => Promise<void>;
  /** `LECTERN_WEBHOOKS_PER_WORKSPACE`: each webhook makes every change one more outbound POST. */
  webhooksPerWorkspace: number;
}): WebhookService {
  const { repository, drains, secretBox, afterCommit } = dependencies;
  const added = (workspaceId: string, webhookId: string) =>
    afterCommit(() => drains.added({ workspaceId, webhookId }));

  /** http(s), no credentials in it, not a refused literal address (a name is checked at each delivery). */
  function checkUrl(url: string): void {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ValidationError('url', 'not a URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new ValidationError('url', 'only http and https URLs can receive webhooks');
    if (parsed.username || parsed.password)
      throw new ValidationError(
        'url',
        'a webhook URL must not carry credentials; the signature authenticates it',
      );
    try {
      dependencies.guard.checkUrl(url);
    } catch (error) {
      throw new ValidationError('url', (error as Error).message);
    }
  }

  async function require(workspaceId: string, id: string): Promise<WebhookRow> {
    const row = await repository.find(workspaceId, id);
    if (!row) throw new NotFoundError('Webhook not found');
    return row;
  }

  return {
    async create(workspaceId, input) {
      checkUrl(input.url);
      const secret = newWebhookSecret();
      const webhook = await repository.insertWithin(dependencies.webhooksPerWorkspace, {
        id: randomUUID(),
        workspaceId,
        url: input.url,
        events: [...new Set(input.events)],
        description: input.description ?? '',
        enabled: input.enabled ?? true,
        secretEncrypted: secretBox.encrypt(secret),
      });
      if (!webhook) throw new WebhookLimitError(dependencies.webhooksPerWorkspace);
      return { webhook, secret };
    },

    get: require,

    async list(workspaceId, pagination) {
      return repository.list(workspaceId, pagination.skip, pagination.limit);
    },

    async update(workspaceId, id, changes) {
      const before = await require(workspaceId, id);
      if (changes.url !== undefined) checkUrl(changes.url);
      const updated = await repository.update(workspaceId, id, {
        url: changes.url,
        events: changes.events && [...new Set(changes.events)],
        description: changes.description,
        enabled: changes.enabled,
      });
      if (!updated) throw new NotFoundError('Webhook not found');
      // Enabled again: what waited while it was disabled goes out now.
      if (updated.enabled && !before.enabled) await added(workspaceId, id);
      return updated;
    },

    async remove(workspaceId, id) {
      if (!(await repository.remove(workspaceId, id))) throw new NotFoundError('Webhook not found');
    },

    async rotateSecret(workspaceId, id) {
      await require(workspaceId, id);
      const secret = newWebhookSecret();
      const webhook = await repository.update(workspaceId, id, {
        secretEncrypted: secretBox.encrypt(secret),
      });
      if (!webhook) throw new NotFoundError('Webhook not found');
      return { webhook, secret };
    },

    async test(workspaceId, id) {
      const webhook = await require(workspaceId, id);
      const body = eventBody('webhook.test', workspaceId, { webhook: webhook.id, url: webhook.url });
      const delivery = await repository.addDelivery(workspaceId, id, 'webhook.test', body);
      await added(workspaceId, id);
      return delivery;
    },

    async deliveries(workspaceId, id, pagination) {
      await require(workspaceId, id);
      return repository.deliveries(workspaceId, id, pagination.skip, pagination.limit);
    },

    async redeliver(workspaceId, id, deliveryId) {
      await require(workspaceId, id);
      const delivery = await repository.redeliver(workspaceId, id, deliveryId);
      if (!delivery) {
        if (await repository.findDelivery(workspaceId, id, deliveryId))
          throw new ConflictError('The delivery is still pending: it is sent, or retried, on its own');
        throw new NotFoundError('Delivery not found');
      }
      await added(workspaceId, id);
      return delivery;
    },

    async emit(workspaceId, type, data) {
      const webhookIds = await repository.addDeliveries(
        workspaceId,
        type,
        eventBody(type, workspaceId, data),
      );
      for (const webhookId of new Set(webhookIds)) await added(workspaceId, webhookId);
    },

    async resume() {
      const pending = await repository.withPendingDeliveries();
      for (const each of pending) await drains.added(each);
      return pending.length;
    },
  };
}
