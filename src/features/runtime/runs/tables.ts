import { index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import type { ErrorCode } from '../../../core/error-codes.js';
import type { WebhookDeliveryStatus } from '../../../core/wire-values.js';
import { createdAt, updatedAt } from '../../../platform/database/columns.js';
import { actions } from '../../authoring/actions/tables.js';
import { tenantKey, workspaces } from '../../identity/workspaces/tables.js';

/**
 * A run request made with an `Idempotency-Key`: retried with the same key and body, it answers what
 * the first one answered instead of running again. Kept a day.
 */
export const idempotentRequests = pgTable(
  'idempotent_requests',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** sha256 of the route and body: the same key with another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    /** Null while the first request runs. */
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.workspaceId, table.key] }),
    index('idempotent_requests_created_index').on(table.createdAt),
  ],
);

/** An asynchronous run: what `result_url` polls. The generation is stored under `generation_id`. */
export const asyncRuns = pgTable('async_runs', {
  ...tenantKey(),
  actionId: uuid('action_id')
    .notNull()
    .references(() => actions.id, { onDelete: 'cascade' }),
  /** Chosen up front, so a retried job never stores a second record. */
  generationId: uuid('generation_id').notNull(),
  status: text('status').$type<WebhookDeliveryStatus>().notNull(),
  output: text('output'),
  errorStatus: integer('error_status'),
  errorCode: text('error_code').$type<ErrorCode>(),
  error: text('error'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
