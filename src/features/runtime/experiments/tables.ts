import { index, pgTable, real, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, deletedAt, updatedAt } from '../../../platform/database/columns.js';
import { actions } from '../../authoring/actions/tables.js';
import { apps } from '../../authoring/apps/tables.js';
import { tenantKey } from '../../identity/workspaces/tables.js';

export const experiments = pgTable(
  'experiments',
  {
    ...tenantKey(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id),
    name: text('name').notNull(),
    primaryActionId: uuid('primary_action_id')
      .notNull()
      .references(() => actions.id),
    secondaryActionId: uuid('secondary_action_id')
      .notNull()
      .references(() => actions.id),
    /** Share of traffic sent to the secondary Action, 0–1. */
    split: real('split').notNull().default(0.5),
    status: text('status').$type<'running' | 'paused' | 'completed'>().notNull().default('running'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (table) => [index('experiments_workspace_index').on(table.workspaceId, table.createdAt)],
);
