import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, deletedAt, updatedAt } from '../../../platform/database/columns.js';
import { actions } from '../../authoring/actions/tables.js';
import { tenantKey } from '../../identity/workspaces/tables.js';

export const sessions = pgTable(
  'sessions',
  {
    ...tenantKey(),
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    name: text('name'),
    extUserId: text('ext_user_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (table) => [index('sessions_workspace_index').on(table.workspaceId, table.extUserId, table.createdAt)],
);
