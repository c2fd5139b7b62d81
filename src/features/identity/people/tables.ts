import { boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { MemberRole } from '../../../core/roles.js';
import { createdAt } from '../../../platform/database/columns.js';
import { tenantKey, workspaces } from '../workspaces/tables.js';

/**
 * A person. Signs in with a password (stored as an scrypt hash) or through the OpenID provider;
 * belongs to workspaces through memberships. Deactivated people cannot sign in, and their keys stop.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    /** Lower-cased: one person, one address. */
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    passwordHash: text('password_hash'),
    verified: boolean('verified').notNull().default(false),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('users_email_unique').on(table.email)],
);

/** A person's role in one workspace. */
export const memberships = pgTable(
  'memberships',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<MemberRole>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.workspaceId, table.userId] }),
    index('memberships_user_index').on(table.userId),
  ],
);

/** An invitation to a workspace: single use, expiring; only its token's hash is stored. */
export const invitations = pgTable(
  'invitations',
  {
    ...tenantKey(),
    email: text('email').notNull(),
    role: text('role').$type<MemberRole>().notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('invitations_token_hash_unique').on(table.tokenHash),
    index('invitations_workspace_index').on(table.workspaceId, table.createdAt),
  ],
);

/**
 * A single-use link that is not an invitation: the first owner's setup link, an admin-issued
 * password reset. Only the token's hash is stored.
 */
export const singleUseTokens = pgTable(
  'single_use_tokens',
  {
    id: uuid('id').primaryKey(),
    purpose: text('purpose').$type<'setup' | 'password_reset'>().notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /**
     * A reset link's issuer and the workspace they issued it in: the link is revoked when they lose
     * the right to issue it there. Null for the operator's, a self-service one and a setup link.
     */
    issuedBy: uuid('issued_by').references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('single_use_tokens_token_hash_unique').on(table.tokenHash),
    index('single_use_tokens_issuer_index').on(table.issuedBy),
  ],
);
