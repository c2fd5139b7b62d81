import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { newestFirst, pageWithTotal, totalOf } from '../../../platform/database/pages.js';
import { everyDocumentEmbedded } from '../documents/index.js';
import { contexts } from './tables.js';

export type ContextRow = typeof contexts.$inferSelect;
export type ContextWithState = ContextRow & { processed: boolean };

/**
 * docs/api.md#how-the-parts-behave: nothing left to embed and no Context Source waiting or running. (Spelled out as
 * `contexts.id`: drizzle renders a column of the selected table unqualified, which the subquery
 * would take for its own `id`.)
 */
const processed = sql<boolean>`(
  ${everyDocumentEmbedded}
  AND NOT EXISTS (SELECT 1 FROM context_sources s WHERE s.context_id = contexts.id
                  AND s.indexing_status IN ('PENDING', 'PROCESSING')))`;

export function createContextRepository(database: Database) {
  const owned = (workspaceId: string, id: string) =>
    and(eq(contexts.workspaceId, workspaceId), eq(contexts.id, id));
  const withState = { ...getTableColumns(contexts), processed };

  return {
    async insert(row: typeof contexts.$inferInsert): Promise<ContextRow> {
      const [inserted] = await database.insert(contexts).values(row).returning();
      return inserted!;
    },

    async find(workspaceId: string, id: string): Promise<ContextRow | undefined> {
      const [row] = await database.select().from(contexts).where(owned(workspaceId, id));
      return row;
    },

    /** Whether the workspace has this Context (one indexed row read, no state counted). */
    async exists(workspaceId: string, id: string): Promise<boolean> {
      const [row] = await database
        .select({ id: contexts.id })
        .from(contexts)
        .where(owned(workspaceId, id))
        .limit(1);
      return row !== undefined;
    },

    /** The GUID of the workspace's Context of this name (the oldest, should two share it). */
    async findIdByName(workspaceId: string, name: string): Promise<string | undefined> {
      const [row] = await database
        .select({ id: contexts.id })
        .from(contexts)
        .where(and(eq(contexts.workspaceId, workspaceId), eq(contexts.name, name)))
        .orderBy(contexts.createdAt)
        .limit(1);
      return row?.id;
    },

    async findWithState(workspaceId: string, id: string): Promise<ContextWithState | undefined> {
      const [row] = await database.select(withState).from(contexts).where(owned(workspaceId, id));
      return row;
    },

    /** Contexts of the workspace among `ids` (an Action's attached Contexts); unknown ones are left out. */
    async findMany(workspaceId: string, ids: string[]): Promise<ContextRow[]> {
      if (ids.length === 0) return [];
      return database
        .select()
        .from(contexts)
        .where(and(eq(contexts.workspaceId, workspaceId), inArray(contexts.id, ids)));
    },

    async list(workspaceId: string, skip: number, limit: number) {
      const scope = eq(contexts.workspaceId, workspaceId);
      return pageWithTotal(
        database
          .select(withState)
          .from(contexts)
          .where(scope)
          .orderBy(...newestFirst(contexts))
          .offset(skip)
          .limit(limit),
        totalOf(database, contexts, scope),
      );
    },

    async update(
      workspaceId: string,
      id: string,
      changes: Partial<
        Pick<
          ContextRow,
          'name' | 'description' | 'responseLength' | 'splitterConfig' | 'embeddingModel' | 'metadata'
        >
      >,
    ): Promise<ContextRow | undefined> {
      const [row] = await database
        .update(contexts)
        .set({ ...changes, updatedAt: new Date() })
        .where(owned(workspaceId, id))
        .returning();
      return row;
    },

    /** Deletes the Context with its Documents, postings and Context Sources (foreign-key cascades). */
    async delete(workspaceId: string, id: string): Promise<boolean> {
      const deleted = await database
        .delete(contexts)
        .where(owned(workspaceId, id))
        .returning({ id: contexts.id });
      return deleted.length > 0;
    },
  };
}

export type ContextRepository = ReturnType<typeof createContextRepository>;
