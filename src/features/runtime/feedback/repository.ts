import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { feedback } from './tables.js';

export type FeedbackRow = typeof feedback.$inferSelect;

export function createFeedbackRepository(database: Database) {
  return {
    async insert(row: typeof feedback.$inferInsert): Promise<FeedbackRow> {
      const [inserted] = await database.insert(feedback).values(row).returning();
      return inserted!;
    },

    /** A non-deleted feedback record. */
    async find(workspaceId: string, id: string): Promise<FeedbackRow | undefined> {
      const [row] = await database
        .select()
        .from(feedback)
        .where(and(eq(feedback.workspaceId, workspaceId), eq(feedback.id, id), eq(feedback.deleted, false)));
      return row;
    },

    /** Changes a non-deleted record (a delete sets `deleted`: the record stays, reads leave it out). */
    async update(
      workspaceId: string,
      id: string,
      changes: Partial<Pick<FeedbackRow, 'type' | 'value' | 'source' | 'metadata' | 'deleted'>>,
    ): Promise<FeedbackRow | undefined> {
      const [row] = await database
        .update(feedback)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(eq(feedback.workspaceId, workspaceId), eq(feedback.id, id), eq(feedback.deleted, false)))
        .returning();
      return row;
    },

    /** Non-deleted feedback of some generations, oldest first. */
    async listForGenerations(workspaceId: string, generationIds: string[]): Promise<FeedbackRow[]> {
      if (generationIds.length === 0) return [];
      return database
        .select()
        .from(feedback)
        .where(
          and(
            eq(feedback.workspaceId, workspaceId),
            inArray(feedback.generationId, generationIds),
            eq(feedback.deleted, false),
          ),
        )
        .orderBy(asc(feedback.createdAt));
    },
  };
}

export type FeedbackRepository = ReturnType<typeof createFeedbackRepository>;
