import { and, eq } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import type { RunFailure } from './durable-runs.js';
import { asyncRuns } from './tables.js';

export type AsyncRunRow = typeof asyncRuns.$inferSelect;

export function createAsyncRunRepository(database: Database) {
  return {
    async insert(row: typeof asyncRuns.$inferInsert): Promise<void> {
      await database.insert(asyncRuns).values(row);
    },

    async find(workspaceId: string, id: string): Promise<AsyncRunRow | undefined> {
      const [row] = await database
        .select()
        .from(asyncRuns)
        .where(and(eq(asyncRuns.workspaceId, workspaceId), eq(asyncRuns.id, id)));
      return row;
    },

    async markSucceeded(id: string, output: string): Promise<void> {
      await database
        .update(asyncRuns)
        .set({ status: 'succeeded', output, updatedAt: new Date() })
        .where(eq(asyncRuns.id, id));
    },

    async markFailed(id: string, failure: RunFailure): Promise<void> {
      await database
        .update(asyncRuns)
        .set({
          status: 'failed',
          errorStatus: failure.status,
          errorCode: failure.code,
          error: failure.message,
          updatedAt: new Date(),
        })
        .where(and(eq(asyncRuns.id, id), eq(asyncRuns.status, 'pending')));
    },
  };
}

export type AsyncRunRepository = ReturnType<typeof createAsyncRunRepository>;
