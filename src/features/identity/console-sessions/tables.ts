import { pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../../platform/database/columns.js';
import { users } from '../people/tables.js';
import { apiKeys, tenantKey } from '../workspaces/tables.js';

/**
 * A console sign-in: a browser exchanged a workspace API key for it and holds its token in an
 * HttpOnly cookie. Only the token's hash is stored; revoking the key ends the session too.
 */
export const consoleSessions = pgTable(
  'console_sessions',
  {
    ...tenantKey(),
    /** The key a session was exchanged for, or the person who signed in: one of the two. */
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [uniqueIndex('console_sessions_token_hash_unique').on(table.tokenHash)],
);
