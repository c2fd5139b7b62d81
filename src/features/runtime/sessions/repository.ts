import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { newestFirst, tablePage } from '../../../platform/database/pages.js';
import { sessions } from './tables.js';

export type SessionRow = typeof sessions.$inferSelect;

export function createSessionRepository(database: Database) {
  const live = (workspaceId: string, id: string) =>
    and(eq(sessions.workspaceId, workspaceId), eq(sessions.id, id), isNull(sessions.deletedAt));

  return {
    async insert(row: typeof sessions.$inferInsert): Promise<SessionRow> {
      const [inserted] = await database.insert(sessions).values(row).returning();
      return inserted!;
    },

    async find(workspaceId: string, id: string): Promise<SessionRow | undefined> {
      const [row] = await database.select().from(sessions).where(live(workspaceId, id));
      return row;
    },

    async list(workspaceId: string, skip: number, limit: number, extUserId?: string) {
      const scope = and(
        eq(sessions.workspaceId, workspaceId),
        isNull(sessions.deletedAt),
        extUserId === undefined ? undefined : eq(sessions.extUserId, extUserId),
      );
      return tablePage(database, sessions, scope, newestFirst(sessions), skip, limit);
    },

    async update(
      workspaceId: string,
      id: string,
      changes: Partial<Pick<SessionRow, 'name' | 'extUserId' | 'deletedAt'>>,
    ): Promise<SessionRow | undefined> {
      const [row] = await database
        .update(sessions)
        .set({ ...changes, updatedAt: new Date() })
        .where(live(workspaceId, id))
        .returning();
      return row;
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
