import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { contextSources } from './tables.js';

export type ContextSourceRow = typeof contextSources.$inferSelect;

export function createContextSourceRepository(database: Database) {
  const owned = (workspaceId: string, id: string) =>
    and(eq(contextSources.workspaceId, workspaceId), eq(contextSources.id, id));

  return {
    async insert(row: typeof contextSources.$inferInsert): Promise<ContextSourceRow> {
      const [inserted] = await database.insert(contextSources).values(row).returning();
      return inserted!;
    },

    async find(workspaceId: string, id: string): Promise<ContextSourceRow | undefined> {
      const [row] = await database.select().from(contextSources).where(owned(workspaceId, id));
      return row;
    },

    /** Begins a processing: the source is PROCESSING and its generation counted up; the new generation. */
    async beginProcessing(workspaceId: string, id: string): Promise<number | undefined> {
      const [row] = await database
        .update(contextSources)
        .set({
          indexingStatus: 'PROCESSING',
          generation: sql`${contextSources.generation} + 1`,
          updatedAt: new Date(),
        })
        .where(owned(workspaceId, id))
        .returning({ generation: contextSources.generation });
      return row?.generation;
    },

    /**
     * The source's newest generation, its row locked until the transaction ends: a processing that
     * begins meanwhile waits (beginProcessing updates the row). `NO KEY UPDATE`, so that Documents
     * written meanwhile, whose foreign key takes a KEY SHARE lock on the row, do not wait for it
     * (with FOR UPDATE the two writes deadlocked on PostgreSQL).
     */
    async lockedGeneration(workspaceId: string, id: string): Promise<number | undefined> {
      const [row] = await database
        .select({ generation: contextSources.generation })
        .from(contextSources)
        .where(owned(workspaceId, id))
        .for('no key update');
      return row?.generation;
    },

    async findMany(workspaceId: string, ids: string[]): Promise<ContextSourceRow[]> {
      if (ids.length === 0) return [];
      return database
        .select()
        .from(contextSources)
        .where(and(eq(contextSources.workspaceId, workspaceId), inArray(contextSources.id, ids)));
    },

    async listForContext(workspaceId: string, contextId: string): Promise<ContextSourceRow[]> {
      return database
        .select()
        .from(contextSources)
        .where(and(eq(contextSources.workspaceId, workspaceId), eq(contextSources.contextId, contextId)))
        .orderBy(asc(contextSources.createdAt), asc(contextSources.id));
    },

    async update(
      workspaceId: string,
      id: string,
      changes: Partial<
        Pick<
          ContextSourceRow,
          | 'name'
          | 'url'
          | 'splitterConfig'
          | 'loaderConfig'
          | 'indexingStatus'
          | 'indexedAt'
          | 'indexingMetadata'
        >
      >,
    ): Promise<ContextSourceRow | undefined> {
      const [row] = await database
        .update(contextSources)
        .set({ ...changes, updatedAt: new Date() })
        .where(owned(workspaceId, id))
        .returning();
      return row;
    },

    /**
     * Puts a source back to PENDING when it has been PROCESSING since before `cutoff` (no attempt can
     * still be running): true for the one caller that did it, so only one dispatches it again.
     */
    async reclaimStale(workspaceId: string, id: string, cutoff: Date): Promise<boolean> {
      const rows = await database
        .update(contextSources)
        .set({ indexingStatus: 'PENDING', updatedAt: new Date() })
        .where(
          and(
            owned(workspaceId, id),
            eq(contextSources.indexingStatus, 'PROCESSING'),
            lt(contextSources.updatedAt, cutoff),
          ),
        )
        .returning({ id: contextSources.id });
      return rows.length > 0;
    },

    async delete(workspaceId: string, id: string): Promise<void> {
      await database.delete(contextSources).where(owned(workspaceId, id));
    },
  };
}

export type ContextSourceRepository = ReturnType<typeof createContextSourceRepository>;
