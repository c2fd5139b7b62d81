import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ProviderKind } from '../../../core/provider-kind-names.js';
import { createdAt, updatedAt } from '../../../platform/database/columns.js';
import { tenantKey } from '../../identity/workspaces/tables.js';

export const providers = pgTable(
  'providers',
  {
    ...tenantKey(),
    kind: text('kind').$type<ProviderKind>().notNull(),
    nickname: text('nickname'),
    url: text('url'),
    /** AES-256-GCM ciphertext of the provider key (see platform/secrets.ts); never returned. */
    encryptedKey: text('encrypted_key'),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('providers_workspace_nickname_unique')
      .on(table.workspaceId, table.nickname)
      .where(sql`${table.nickname} is not null`),
    index('providers_workspace_index').on(table.workspaceId, table.kind),
  ],
);

export const models = pgTable(
  'models',
  {
    ...tenantKey(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    name: text('name').notNull(),
    /** The workspace's default model (at most one; `GET /v1/models/default`). */
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [index('models_workspace_index').on(table.workspaceId, table.createdAt)],
);
