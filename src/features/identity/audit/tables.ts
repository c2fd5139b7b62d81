import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { AuditActorType } from '../../../core/roles.js';

/** The audit chain's head: one row holding the newest record's hash; each append locks and moves it. */
export const auditChain = pgTable('audit_chain', {
  id: integer('id').primaryKey(),
  hash: text('hash').notNull(),
  /**
   * HMAC of the head under the chain's key (from LECTERN_SECRET): a head reset to an earlier record
   * after the newest were deleted does not carry a valid one. Null before the chain was keyed.
   */
  mac: text('mac'),
  /**
   * SHA-256 of the chain key's inner pad: only a transaction that names the key itself (retention's
   * prune) may delete records; a setting anyone can make no longer does.
   */
  keyCheck: text('key_check'),
});

/**
 * One configuration change, sign-in or sign-out (docs/api.md#audit-log). Append-only: a trigger
 * refuses UPDATE and DELETE (retention's pruning aside), and each record's hash covers the one
 * before it, so an edit made around the trigger shows in `lectern audit verify`.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    /** The chain's order: records are appended under one lock, so positions follow the chain. */
    position: bigint('position', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    id: uuid('id').notNull(),
    /** Null for what belongs to no workspace (a sign-in failure for an unknown address). */
    workspaceId: uuid('workspace_id'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    actorType: text('actor_type').$type<AuditActorType>().notNull(),
    actorId: uuid('actor_id'),
    actorLabel: text('actor_label').notNull(),
    action: text('action').notNull(),
    resourceType: text('resource_type'),
    resourceId: text('resource_id'),
    status: integer('status').notNull(),
    requestId: text('request_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    changes: jsonb('changes').$type<Record<string, unknown>>(),
    previousHash: text('previous_hash').notNull(),
    hash: text('hash').notNull(),
    /**
     * Whether `hash` is an HMAC under the chain's key (every record since the key came in): an edit
     * whose later hashes were recomputed cannot be made without the key. Records from before are
     * plain SHA-256, and none may follow a keyed one.
     */
    keyed: boolean('keyed').notNull().default(false),
  },
  (table) => [
    uniqueIndex('audit_log_id_unique').on(table.id),
    index('audit_log_workspace_index').on(table.workspaceId, table.position),
  ],
);
