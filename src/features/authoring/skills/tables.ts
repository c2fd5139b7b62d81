import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { SkillMetadataEntry } from '../../../core/json-columns.js';
import { createdAt, updatedAt } from '../../../platform/database/columns.js';
import { tenantKey } from '../../identity/workspaces/tables.js';

/** A reusable capability a model may call as a tool, or that runs on its own (docs/api.md#how-the-parts-behave). */
export const skills = pgTable(
  'skills',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    /** The skill type's name (`http_request`, `context_search`, `action`, `calculator`). */
    type: text('type').notNull(),
    metadata: jsonb('metadata').$type<SkillMetadataEntry[]>().notNull(),
    /** Values that may hold credentials (http_request headers), encrypted with the instance secret. */
    sealedMetadata: text('sealed_metadata'),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('skills_workspace_index').on(table.workspaceId, table.createdAt)],
);
