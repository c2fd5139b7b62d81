import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, deletedAt, updatedAt } from '../../../platform/database/columns.js';
import { tenantKey } from '../../identity/workspaces/tables.js';

export const apps = pgTable(
  'apps',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** A label the official SDK's `appType` sets; Lectern keeps it and shows it back. */
    appType: text('app_type'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (table) => [index('apps_workspace_index').on(table.workspaceId, table.createdAt)],
);
