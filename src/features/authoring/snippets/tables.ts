import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, deletedAt, updatedAt } from '../../../platform/database/columns.js';
import { tenantKey } from '../../identity/workspaces/tables.js';

/** A reusable template fragment, included by name: `{% include 'tone' %}` or pinned `{% include 'tone@3' %}`. */
export const snippets = pgTable(
  'snippets',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    folder: text('folder').notNull().default(''),
    description: text('description').notNull().default(''),
    latestVersion: integer('latest_version').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Soft delete: the versions stay, so every Action version that pinned one still renders. */
    deletedAt: deletedAt(),
  },
  (table) => [
    uniqueIndex('snippets_workspace_name_unique')
      .on(table.workspaceId, table.name)
      .where(sql`${table.deletedAt} is null`),
    index('snippets_workspace_folder_index').on(table.workspaceId, table.folder),
  ],
);

export const snippetVersions = pgTable(
  'snippet_versions',
  {
    snippetId: uuid('snippet_id')
      .notNull()
      .references(() => snippets.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    content: text('content').notNull(),
    /** Who saved it: a person's GUID, or a creator-less key's. */
    savedById: text('saved_by_id'),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.snippetId, table.version] })],
);
