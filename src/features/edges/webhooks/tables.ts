import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { WebhookDeliveryStatus } from '../../../core/wire-values.js';
import { createdAt, updatedAt } from '../../../platform/database/columns.js';
import { tenantKey } from '../../identity/workspaces/tables.js';

/** Where a workspace's events are sent (docs/webhooks.md): signed with its secret, encrypted at rest. */
export const webhooks = pgTable(
  'webhooks',
  {
    ...tenantKey(),
    url: text('url').notNull(),
    /** Event types, or `*` for every one. */
    events: text('events').array().notNull(),
    description: text('description').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    /** The signing secret (`whsec_…`), encrypted with the instance secret. */
    secretEncrypted: text('secret_encrypted').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('webhooks_workspace_index').on(table.workspaceId)],
);

/**
 * The outbox: one row per event and webhook, written in the transaction of the change, sent after
 * it commits. Only each webhook's oldest pending delivery is sent (its `sequence` orders them), so a
 * webhook hears its events in the order of the changes.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    ...tenantKey(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    sequence: bigint('sequence', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    event: text('event').notNull(),
    /** The body sent, exactly: the signature covers these bytes. */
    body: text('body').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    responseStatus: integer('response_status'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** While a node sends it: no other node takes it before this passes (renewed as the send goes on). */
    leasedUntil: timestamp('leased_until', { withTimezone: true, mode: 'date' }),
    /** Which running service holds the lease: a node that sees its own need not look again later. */
    leasedBy: text('leased_by'),
    /** When its 24 hours of retries began (its creation, or its last redelivery). */
    retriesFrom: timestamp('retries_from', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (table) => [
    index('webhook_deliveries_webhook_index').on(table.webhookId, table.sequence),
    index('webhook_deliveries_pending_index').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
  ],
);
