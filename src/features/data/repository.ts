import { and, count, desc, eq } from 'drizzle-orm';
import type { Database } from '../../platform/database/connection.js';
import { generations } from '../../platform/database/schema.js';

export type GenerationRow = typeof generations.$inferSelect;
export type NewGeneration = typeof generations.$inferInsert;

/** Earlier turns replayed into a session's prompt; older ones are left out to bound the prompt. */
const sessionHistoryTurns = 100;

export function createGenerationRepository(database: Database) {
  async function page(where: ReturnType<typeof and>, skip: number, limit: number) {
    const rows = await database
      .select()
      .from(generations)
      .where(where)
      .orderBy(desc(generations.createdAt), desc(generations.id))
      .offset(skip)
      .limit(limit);
    const [total] = await database.select({ value: count() }).from(generations).where(where);
    return { rows, total: total?.value ?? 0 };
  }

  return {
    /** Idempotent by id: a retried job that already stored its generation stores nothing more. */
    async insert(row: NewGeneration): Promise<void> {
      await database.insert(generations).values(row).onConflictDoNothing({ target: generations.id });
    },

    async find(workspaceId: string, id: string): Promise<GenerationRow | undefined> {
      const [row] = await database
        .select()
        .from(generations)
        .where(and(eq(generations.workspaceId, workspaceId), eq(generations.id, id)));
      return row;
    },

    listByAction(workspaceId: string, actionId: string, skip: number, limit: number) {
      return page(
        and(eq(generations.workspaceId, workspaceId), eq(generations.actionId, actionId)),
        skip,
        limit,
      );
    },

    listBySession(workspaceId: string, sessionId: string, skip: number, limit: number) {
      return page(
        and(eq(generations.workspaceId, workspaceId), eq(generations.sessionId, sessionId)),
        skip,
        limit,
      );
    },

    /** The session's latest turns, oldest first. */
    async sessionTurns(workspaceId: string, sessionId: string) {
      const latest = await database
        .select({
          turn: generations.turnMessages,
          output: generations.output,
          createdAt: generations.createdAt,
        })
        .from(generations)
        .where(and(eq(generations.workspaceId, workspaceId), eq(generations.sessionId, sessionId)))
        .orderBy(desc(generations.createdAt), desc(generations.id))
        .limit(sessionHistoryTurns);
      return latest.reverse();
    },

    /** The newest generation made for this cache key (DESIGN.md §4). */
    async findByCacheKey(workspaceId: string, cacheKey: string): Promise<GenerationRow | undefined> {
      const [row] = await database
        .select()
        .from(generations)
        .where(
          and(
            eq(generations.workspaceId, workspaceId),
            eq(generations.cacheKey, cacheKey),
            eq(generations.cached, false),
          ),
        )
        .orderBy(desc(generations.createdAt))
        .limit(1);
      return row;
    },
  };
}

export type GenerationRepository = ReturnType<typeof createGenerationRepository>;
