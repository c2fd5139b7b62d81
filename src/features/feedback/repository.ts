import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../platform/database/connection.js';
import { feedback } from '../../platform/database/schema.js';

export type FeedbackRow = typeof feedback.$inferSelect;

export function createFeedbackRepository(database: Database) {
  return {
    async insert(row: typeof feedback.$inferInsert): Promise<FeedbackRow> {
      const [inserted] = await database.insert(feedback).values(row).returning();
      return inserted!;
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
