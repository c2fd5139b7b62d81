import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { defineJob, type JobHandler, type JobQueue } from '../../../platform/jobs/job-queue.js';
import type { OutboundFetch } from '../../../platform/outbound-fetch.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { ClaimedDelivery, DeliveryOutcome, WebhookRepository } from './repository.js';
import { nextAttemptAt } from './retry-schedule.js';
import { signDelivery } from './signature.js';

/**
 * Sends a webhook's pending deliveries, oldest first, one at a time (docs/webhooks.md#delivery).
 * Every change that adds a delivery queues one; a drain that finds the oldest delivery not yet due
 * (a retry) queues itself for then. A delivery is held by a lease while it is sent, renewed as the
 * send goes on, so two drains of one webhook (two nodes) never send one delivery twice at once nor
 * pass each other, and a node that dies mid-send leaves it free again within seconds.
 */
export const webhookDeliveryJob = defineJob({
  name: 'webhook-delivery',
  // A slow receiver must never hold the slots of runs a person waits for.
  lane: 'bulk',
  payload: z.object({ workspaceId: z.uuid(), webhookId: z.uuid() }),
  attempts: 5,
  backoffMs: 2_000,
  timeoutMs: 2 * 60 * 1000,
});

export type WebhookDeliveryPayload = z.infer<typeof webhookDeliveryJob.payload>;

/** A receiver that has not answered in this long has failed the attempt. */
export const deliveryTimeoutMs = 10_000;

/** A node holds a delivery it sends this long, and renews the hold a few times as long while it sends. */
const leaseMs = 3_000;
const renewEveryMs = 1_000;

/**
 * A drain hands on to a new job after this long. The new job takes its turn behind other
 * workspaces' bulk jobs, so a busy webhook (a slow receiver that still answers) holds a bulk slot
 * for seconds at a time, never for minutes.
 */
const drainMs = 5_000;

/**
 * A delivery that got no answer, whatever the reason: a closed port, a silent one, a reset, a name
 * that does not resolve or resolves to a private address. One wording for all, so deliveries cannot
 * be used to map the operator's network (the reason goes to the service's own log).
 */
const unreachable = 'the receiver could not be reached';

export type WebhookDrains = {
  handler: JobHandler<WebhookDeliveryPayload>;
  /**
   * Told, once the change that added them has committed, that a webhook has new deliveries: a drain
   * running in this service takes them, else a drain job is queued. Never fails.
   */
  added(payload: WebhookDeliveryPayload): Promise<void>;
};

export function createWebhookDrains(dependencies: {
  repository: WebhookRepository;
  jobs: Pick<JobQueue, 'enqueue'>;
  fetch: OutboundFetch;
  secretBox: SecretBox;
  retryBaseMs: number;
  logger: Logger;
}): WebhookDrains {
  const { repository, jobs, secretBox, logger } = dependencies;
  // This running service, as a lease names it: a drain that finds a delivery held by its own
  // service knows the holder is alive and will go on; one held by another may have died with it.
  const lease = { ms: leaseMs, holder: randomUUID() };

  /** Sends while renewing the hold, so a slow receiver (up to 10 s) never loses it to another node. */
  async function sendHeld(delivery: ClaimedDelivery): Promise<DeliveryOutcome> {
    const renewing = setInterval(() => {
      repository
        .renew(delivery.id, lease)
        .catch((error: unknown) => logger.warn({ err: error }, 'could not renew a webhook lease'));
    }, renewEveryMs);
    try {
      return await send(delivery);
    } finally {
      clearInterval(renewing);
    }
  }

  async function queue(payload: WebhookDeliveryPayload, later?: { at: Date; key: string }): Promise<void> {
    await jobs.enqueue(
      webhookDeliveryJob,
      payload,
      later && { delayMs: Math.max(0, later.at.getTime() - Date.now()), key: later.key },
    );
  }

  async function send(delivery: ClaimedDelivery): Promise<DeliveryOutcome> {
    const secret = secretBox.decrypt(delivery.secretEncrypted);
    const signed = signDelivery(secret, delivery.id, Math.floor(Date.now() / 1000), delivery.body);
    let status: number | null = null;
    let error: string;
    try {
      const answer = await dependencies.fetch(delivery.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Lectern-Webhooks', ...signed },
        body: delivery.body,
        acceptErrorStatus: true,
        followRedirects: false,
      });
      status = answer.status;
      if (status >= 200 && status < 300) return { status: 'succeeded', responseStatus: status };
      // The status only, never the body: a receiver's error page can hold its own secrets.
      error =
        status >= 300 && status < 400
          ? `redirected (${status}); redirects are not followed`
          : `answered ${status}`;
    } catch (failure) {
      logger.info(
        { delivery: delivery.id, reason: (failure as Error).message },
        'webhook receiver unreachable',
      );
      error = unreachable;
    }
    const next = nextAttemptAt(delivery.attempts, delivery.retriesFrom, new Date(), dependencies.retryBaseMs);
    if (!next)
      return { status: 'failed', responseStatus: status, error: `${error}; given up after 24 hours` };
    return { status: 'pending', responseStatus: status, error, nextAttemptAt: next };
  }

  /**
   * One pass over the webhook's pending deliveries: sends each in turn until none is due, then
   * says whether it ended idle (nothing pending) or left a later look queued.
   */
  async function drain(payload: WebhookDeliveryPayload): Promise<'idle' | 'queued'> {
    const started = Date.now();
    let raced = 0;
    while (Date.now() - started < drainMs) {
      const delivery = await repository.claim(payload.webhookId, lease);
      if (delivery) {
        const outcome = await sendHeld(delivery);
        await repository.finish(delivery.id, outcome);
        if (outcome.status !== 'succeeded')
          logger.info(
            { webhook: payload.webhookId, delivery: delivery.id, outcome: outcome.status },
            'webhook delivery failed',
          );
        continue;
      }
      const head = await repository.headState(payload.webhookId);
      if (head.kind === 'none') return 'idle';
      // A retry not yet due: look again then. The key makes one such job per moment, however many
      // drains see it.
      if (head.kind === 'later') {
        await queue(payload, { at: head.at, key: `webhook:${payload.webhookId}:${head.at.getTime()}` });
        return 'queued';
      }
      // Held by a drain of this service: it goes on to the next delivery itself. Held by another
      // service, which may have died: look again when its hold ends (one job per attempt).
      if (head.kind === 'held') {
        if (head.holder !== lease.holder)
          await queue(payload, {
            at: head.until,
            key: `webhook:${payload.webhookId}:held:${head.delivery}:${head.attempts}`,
          });
        return 'queued';
      }
      // Due and free, but a concurrent drain changed it between our two reads: try again, a few
      // times, then a moment later.
      raced += 1;
      if (raced > 3) {
        const at = new Date(Date.now() + 1_000);
        await queue(payload, { at, key: `webhook:${payload.webhookId}:${at.getTime()}` });
        return 'queued';
      }
    }
    await queue(payload);
    return 'queued';
  }

  /**
   * The drains running in this service, by webhook. A delivery added while one runs is left to it
   * (it goes round again) instead of costing a job of its own: 1,000 deploys in a row are one drain,
   * not 1,000 jobs.
   */
  const running = new Map<string, { again: boolean }>();

  return {
    async added(payload) {
      const drainer = running.get(payload.webhookId);
      if (drainer) {
        drainer.again = true;
        return;
      }
      // The change is committed: a queue that refuses the job must not fail it. Its deliveries
      // wait for the next change, or for a worker's resume within the minute.
      await queue(payload).catch((error: unknown) =>
        logger.warn({ err: error, webhook: payload.webhookId }, 'could not queue a webhook drain'),
      );
    },
    handler: {
      async process(payload) {
        const other = running.get(payload.webhookId);
        if (other) {
          other.again = true;
          return;
        }
        const drainer = { again: false };
        running.set(payload.webhookId, drainer);
        try {
          for (;;) {
            const ended = await drain(payload);
            // Decided in one turn with the map's update: an `added` either sees this drain and asks
            // it round again, or finds none and queues a job.
            if (ended === 'idle' && drainer.again) {
              drainer.again = false;
              continue;
            }
            running.delete(payload.webhookId);
            return;
          }
        } catch (error) {
          running.delete(payload.webhookId);
          throw error;
        }
      },
    },
  };
}
