import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { WebhookEventType } from '../../../core/wire-values.js';
import { type Database, rowsOf } from '../../../platform/database/connection.js';
import { newestFirst, tablePage } from '../../../platform/database/pages.js';
import { webhookDeliveries, webhooks } from './tables.js';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A delivery taken to send: what goes on the wire, and where. */
export type ClaimedDelivery = {
  id: string;
  body: string;
  attempts: number;
  retriesFrom: Date;
  url: string;
  secretEncrypted: string;
};

/**
 * Why a webhook's oldest pending delivery was not taken: none is pending; it is due later (a retry);
 * a node is sending it (`holder`: which one, until when); or it is free now (another drain raced us).
 */
export type HeadState =
  | { kind: 'none' }
  | { kind: 'later'; at: Date }
  | { kind: 'held'; delivery: string; attempts: number; holder: string | null; until: Date }
  | { kind: 'ready' };

export type DeliveryOutcome =
  | { status: 'succeeded'; responseStatus: number }
  | { status: 'pending'; responseStatus: number | null; error: string; nextAttemptAt: Date }
  | { status: 'failed'; responseStatus: number | null; error: string };

type WebhookChanges = Partial<
  Pick<WebhookRow, 'url' | 'events' | 'description' | 'enabled' | 'secretEncrypted'>
>;

const ofWorkspace = (workspaceId: string, id: string) =>
  and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.id, id));

export function createWebhookRepository(database: Database) {
  /** The webhook's oldest pending delivery: the only one that may be sent (in order per webhook). */
  const head = (webhookId: string) => sql`
    SELECT id, attempts, next_attempt_at, leased_until, leased_by FROM ${webhookDeliveries}
    WHERE webhook_id = ${webhookId} AND status = 'pending' ORDER BY sequence LIMIT 1`;

  return {
    /**
     * A new webhook unless the workspace has `limit` already: undefined then. Creations of one
     * workspace take a transaction lock of their own while counting, so two cannot pass it together.
     */
    async insertWithin(limit: number, row: typeof webhooks.$inferInsert): Promise<WebhookRow | undefined> {
      return database.transaction(async (transaction) => {
        await transaction.execute(
          sql`SELECT pg_advisory_xact_lock(hashtextextended(${`webhooks:${row.workspaceId}`}, 0))`,
        );
        const [existing] = await transaction
          .select({ value: count() })
          .from(webhooks)
          .where(eq(webhooks.workspaceId, row.workspaceId));
        if ((existing?.value ?? 0) >= limit) return undefined;
        const [inserted] = await transaction.insert(webhooks).values(row).returning();
        return inserted;
      });
    },

    async find(workspaceId: string, id: string): Promise<WebhookRow | undefined> {
      const [row] = await database.select().from(webhooks).where(ofWorkspace(workspaceId, id));
      return row;
    },

    async list(workspaceId: string, skip: number, limit: number) {
      const scope = eq(webhooks.workspaceId, workspaceId);
      return tablePage(database, webhooks, scope, newestFirst(webhooks), skip, limit);
    },

    async update(workspaceId: string, id: string, changes: WebhookChanges): Promise<WebhookRow | undefined> {
      const [row] = await database
        .update(webhooks)
        .set({ ...changes, updatedAt: new Date() })
        .where(ofWorkspace(workspaceId, id))
        .returning();
      return row;
    },

    /** Deletes the webhook and (cascading) its deliveries; false when there was none. */
    async remove(workspaceId: string, id: string): Promise<boolean> {
      const rows = await database
        .delete(webhooks)
        .where(ofWorkspace(workspaceId, id))
        .returning({ id: webhooks.id });
      return rows.length > 0;
    },

    /**
     * The outbox: one delivery of `body` for each enabled webhook of the workspace that takes this
     * event, in one statement of the caller's transaction. Answers the webhooks it went to.
     */
    async addDeliveries(workspaceId: string, event: WebhookEventType, body: string): Promise<string[]> {
      const result = await database.execute(sql`
        INSERT INTO ${webhookDeliveries} (id, workspace_id, webhook_id, event, body)
        SELECT gen_random_uuid(), workspace_id, id, ${event}, ${body} FROM ${webhooks}
        WHERE workspace_id = ${workspaceId} AND enabled
          AND (${event} = ANY(events) OR '*' = ANY(events))
        RETURNING webhook_id`);
      return rowsOf<{ webhook_id: string }>(result).map((row) => row.webhook_id);
    },

    /** A delivery to one webhook only (`webhook.test`). */
    async addDelivery(
      workspaceId: string,
      webhookId: string,
      event: string,
      body: string,
    ): Promise<DeliveryRow> {
      const [row] = await database
        .insert(webhookDeliveries)
        .values({ id: crypto.randomUUID(), workspaceId, webhookId, event, body })
        .returning();
      return row!;
    },

    /**
     * Takes the webhook's oldest pending delivery for `leaseMs` when it is due and no node holds
     * it (and the webhook is enabled), counting the attempt; undefined otherwise.
     */
    async claim(
      webhookId: string,
      lease: { ms: number; holder: string },
    ): Promise<ClaimedDelivery | undefined> {
      const result = await database.execute(sql`
        WITH head AS (${head(webhookId)} FOR UPDATE)
        UPDATE ${webhookDeliveries} AS delivery
        SET leased_until = now() + make_interval(secs => ${lease.ms / 1000}), leased_by = ${lease.holder},
          attempts = delivery.attempts + 1
        FROM head, ${webhooks} AS hook
        WHERE delivery.id = head.id AND hook.id = delivery.webhook_id AND hook.enabled
          AND head.next_attempt_at <= now() AND (head.leased_until IS NULL OR head.leased_until < now())
        RETURNING delivery.id, delivery.body, delivery.attempts, delivery.retries_from,
          hook.url, hook.secret_encrypted`);
      const [row] = rowsOf<{
        id: string;
        body: string;
        attempts: number;
        retries_from: Date | string;
        url: string;
        secret_encrypted: string;
      }>(result);
      return (
        row && {
          id: row.id,
          body: row.body,
          attempts: Number(row.attempts),
          retriesFrom: new Date(row.retries_from),
          url: row.url,
          secretEncrypted: row.secret_encrypted,
        }
      );
    },

    /** Where the webhook's oldest pending delivery stands, for a drain that took none (a disabled webhook's wait). */
    async headState(webhookId: string): Promise<HeadState> {
      const [row] = rowsOf<{
        id: string;
        attempts: number;
        next_attempt_at: Date | string;
        leased_until: Date | string | null;
        leased_by: string | null;
      }>(
        await database.execute(sql`
          SELECT pending.* FROM (${head(webhookId)}) AS pending
          WHERE EXISTS (SELECT 1 FROM ${webhooks} WHERE id = ${webhookId} AND enabled)`),
      );
      if (!row) return { kind: 'none' };
      const leased = row.leased_until === null ? undefined : new Date(row.leased_until);
      if (leased && leased.getTime() > Date.now())
        return {
          kind: 'held',
          delivery: row.id,
          attempts: Number(row.attempts),
          holder: row.leased_by,
          until: leased,
        };
      const due = new Date(row.next_attempt_at);
      return due.getTime() > Date.now() ? { kind: 'later', at: due } : { kind: 'ready' };
    },

    /** Keeps holding a delivery being sent; false once it is no longer this holder's. */
    async renew(id: string, lease: { ms: number; holder: string }): Promise<boolean> {
      const rows = await database
        .update(webhookDeliveries)
        .set({ leasedUntil: sql`now() + make_interval(secs => ${lease.ms / 1000})` })
        .where(
          and(
            eq(webhookDeliveries.id, id),
            eq(webhookDeliveries.status, 'pending'),
            eq(webhookDeliveries.leasedBy, lease.holder),
          ),
        )
        .returning({ id: webhookDeliveries.id });
      return rows.length > 0;
    },

    /** Records an attempt's outcome and frees the delivery. */
    async finish(id: string, outcome: DeliveryOutcome): Promise<void> {
      await database
        .update(webhookDeliveries)
        .set({
          status: outcome.status,
          responseStatus: outcome.responseStatus,
          // A success keeps the error of the attempt before it: why it took more than one.
          lastError: outcome.status === 'succeeded' ? undefined : outcome.error,
          nextAttemptAt: outcome.status === 'pending' ? outcome.nextAttemptAt : undefined,
          leasedUntil: null,
          leasedBy: null,
        })
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')));
    },

    async deliveries(workspaceId: string, webhookId: string, skip: number, limit: number) {
      const scope = and(
        eq(webhookDeliveries.workspaceId, workspaceId),
        eq(webhookDeliveries.webhookId, webhookId),
      );
      return tablePage(database, webhookDeliveries, scope, [desc(webhookDeliveries.sequence)], skip, limit);
    },

    async findDelivery(workspaceId: string, webhookId: string, id: string): Promise<DeliveryRow | undefined> {
      const [row] = await database
        .select()
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.workspaceId, workspaceId),
            eq(webhookDeliveries.webhookId, webhookId),
            eq(webhookDeliveries.id, id),
          ),
        );
      return row;
    },

    /**
     * Sends a finished delivery again: pending from now, with 24 hours of retries of its own, behind
     * the webhook's other pending deliveries (a new place in its order). Its id, the `webhook-id`,
     * stays. One still pending is left as it is (undefined): it may be on its way.
     */
    async redeliver(workspaceId: string, webhookId: string, id: string): Promise<DeliveryRow | undefined> {
      const [row] = rowsOf<{ id: string }>(
        await database.execute(sql`
          UPDATE ${webhookDeliveries} SET status = 'pending', sequence = DEFAULT, next_attempt_at = now(),
            retries_from = now(), leased_until = NULL, leased_by = NULL
          WHERE workspace_id = ${workspaceId} AND webhook_id = ${webhookId} AND id = ${id}
            AND status <> 'pending'
          RETURNING id`),
      );
      if (!row) return undefined;
      const [delivery] = await database
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, row.id));
      return delivery;
    },

    /** Every webhook with a pending delivery: what a starting node resumes. */
    async withPendingDeliveries(): Promise<{ workspaceId: string; webhookId: string }[]> {
      const rows = await database
        .selectDistinct({
          workspaceId: webhookDeliveries.workspaceId,
          webhookId: webhookDeliveries.webhookId,
        })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.status, 'pending'));
      return rows;
    },
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
