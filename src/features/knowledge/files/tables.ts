import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../../../platform/database/columns.js';
import { tenantKey } from '../../identity/workspaces/tables.js';

/** An uploaded file (docs/api.md#how-the-parts-behave); the bytes live in the blob store under `files/<workspace>/<id>`. */
export const files = pgTable('files', {
  ...tenantKey(),
  mimeType: text('mime_type').notNull(),
  size: integer('size').notNull(),
  createdAt: createdAt(),
});
