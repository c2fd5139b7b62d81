import { timestamp } from 'drizzle-orm/pg-core';

// The columns most tables share. Every tenant-owned table carries workspace_id (the workspaces
// feature's tenantKey); repositories filter on it in every query.

export const createdAt = () =>
  timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** Soft delete: set when a resource is deleted; public reads leave such rows out. */
export const deletedAt = () => timestamp('deleted_at', { withTimezone: true, mode: 'date' });
