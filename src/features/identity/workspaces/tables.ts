import { jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { WorkspaceSettings } from '../../../core/json-columns.js';
import type { KeyRole } from '../../../core/roles.js';
import { createdAt } from '../../../platform/database/columns.js';
import { users } from '../people/tables.js';

export const workspaces = pgTable('workspaces', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  settings: jsonb('settings').$type<WorkspaceSettings>().notNull().default({}),
  createdAt: createdAt(),
});

/**
 * The key and owner every tenant-owned table starts with. A function declaration, not a const: the
 * identity wing's tables files import each other (a key's creator is a person, a person's membership
 * names a workspace), and a declaration is ready before either module's body runs, whichever loads first.
 */
export function tenantKey() {
  return {
    id: uuid('id').primaryKey(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
  };
}

export const apiKeys = pgTable(
  'api_keys',
  {
    ...tenantKey(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    name: text('name').notNull().default(''),
    /** Keys made before people existed, and those of the bootstrap, the admin API and the CLI: admin. */
    role: text('role').$type<KeyRole>().notNull().default('admin'),
    /** The person who made it; the key stops when they leave the workspace. Null: no creator. */
    createdBy: uuid('created_by').references(() => users.id),
    /** Written at most once a minute per key and node, not on every request. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [uniqueIndex('api_keys_key_hash_unique').on(table.keyHash)],
);
