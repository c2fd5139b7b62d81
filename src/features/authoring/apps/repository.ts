import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { newestFirst, tablePage } from '../../../platform/database/pages.js';
import { apps } from './tables.js';

export type AppRow = typeof apps.$inferSelect;

const live = (workspaceId: string) => and(eq(apps.workspaceId, workspaceId), isNull(apps.deletedAt));

export function createAppRepository(database: Database) {
  return {
    async insert(row: typeof apps.$inferInsert): Promise<AppRow> {
      const [app] = await database.insert(apps).values(row).returning();
      return app!;
    },
    async find(workspaceId: string, id: string): Promise<AppRow | undefined> {
      const [app] = await database
        .select()
        .from(apps)
        .where(and(live(workspaceId), eq(apps.id, id)));
      return app;
    },
    async list(workspaceId: string, skip: number, limit: number): Promise<{ rows: AppRow[]; total: number }> {
      return tablePage(database, apps, live(workspaceId), newestFirst(apps), skip, limit);
    },
    async update(
      workspaceId: string,
      id: string,
      changes: Partial<Pick<AppRow, 'name' | 'description' | 'appType' | 'deletedAt'>>,
    ) {
      const [app] = await database
        .update(apps)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(live(workspaceId), eq(apps.id, id)))
        .returning();
      return app;
    },
  };
}

export type AppRepository = ReturnType<typeof createAppRepository>;
