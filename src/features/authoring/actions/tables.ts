import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  ModelConfig,
  ResolvedTemplates,
  SnippetPins,
  TemplateMessage,
  ToolDefinition,
} from '../../../core/json-columns.js';
import { createdAt, deletedAt, updatedAt } from '../../../platform/database/columns.js';
import { tenantKey, workspaces } from '../../identity/workspaces/tables.js';
import { apps } from '../apps/tables.js';

export const actions = pgTable(
  'actions',
  {
    ...tenantKey(),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    actionType: text('action_type').notNull().default('prompt'),
    defaultEnvironment: text('default_environment').notNull().default('production'),
    latestVersion: integer('latest_version').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    /** `""` (the root) or `/`-separated segments; moving an Action makes no new version. */
    folder: text('folder').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Soft delete: the Action's generations and feedback stay stored. */
    deletedAt: deletedAt(),
  },
  (table) => [
    uniqueIndex('actions_workspace_slug_unique').on(table.workspaceId, table.slug),
    index('actions_workspace_index').on(table.workspaceId, table.createdAt),
    index('actions_workspace_folder_index').on(table.workspaceId, table.folder),
  ],
);

/**
 * A slug an Action gave up by a rename. Applications call Actions by slug, so for 30 days only an
 * admin may give it to another Action (docs/security.md#release-gates-and-slugs): a developer cannot
 * free a gated Action's slug and put an ungated impostor behind it.
 */
export const releasedActionSlugs = pgTable(
  'released_action_slugs',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    releasedAt: timestamp('released_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('released_action_slugs_slug_index').on(table.workspaceId, table.slug, table.releasedAt)],
);

export const actionVersions = pgTable(
  'action_versions',
  {
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    model: text('model').notNull(),
    modelConfig: jsonb('model_config').$type<ModelConfig>().notNull().default({}),
    prompt: text('prompt'),
    messages: jsonb('messages').$type<TemplateMessage[]>(),
    systemMessage: text('system_message'),
    contexts: jsonb('contexts').$type<string[]>().notNull().default([]),
    skills: jsonb('skills').$type<string[]>().notNull().default([]),
    tools: jsonb('tools').$type<ToolDefinition[]>().notNull().default([]),
    /**
     * The snippet versions its templates include, pinned when it was saved: a new snippet version
     * changes no saved version, so nothing deployed changes behind a release gate.
     */
    snippets: jsonb('snippets').$type<SnippetPins>().notNull().default({}),
    /** Its templates with every include replaced by the pinned snippet's text; null when none includes one. */
    resolved: jsonb('resolved').$type<ResolvedTemplates>(),
    /** Who saved it: a person's GUID, or a creator-less key's. */
    savedById: text('saved_by_id'),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.actionId, table.version] })],
);

export const actionDeployments = pgTable(
  'action_deployments',
  {
    actionId: uuid('action_id')
      .notNull()
      .references(() => actions.id, { onDelete: 'cascade' }),
    environment: text('environment').notNull(),
    version: integer('version').notNull(),
    /** Who deployed it: a person's GUID, or a creator-less key's. */
    deployedById: text('deployed_by_id'),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.actionId, table.environment] })],
);
