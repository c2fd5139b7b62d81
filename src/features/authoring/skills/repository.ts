import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { newestFirst, tablePage } from '../../../platform/database/pages.js';
import { skills } from './tables.js';

export type SkillRow = typeof skills.$inferSelect;

const ofWorkspace = (workspaceId: string) => eq(skills.workspaceId, workspaceId);

export function createSkillRepository(database: Database) {
  return {
    async insert(row: typeof skills.$inferInsert): Promise<SkillRow> {
      const [skill] = await database.insert(skills).values(row).returning();
      return skill!;
    },
    async find(workspaceId: string, id: string): Promise<SkillRow | undefined> {
      const [skill] = await database
        .select()
        .from(skills)
        .where(and(ofWorkspace(workspaceId), eq(skills.id, id)));
      return skill;
    },
    async findMany(workspaceId: string, ids: string[]): Promise<SkillRow[]> {
      if (ids.length === 0) return [];
      return database
        .select()
        .from(skills)
        .where(and(ofWorkspace(workspaceId), inArray(skills.id, ids)));
    },
    async list(workspaceId: string, skip: number, limit: number) {
      return tablePage(database, skills, ofWorkspace(workspaceId), newestFirst(skills), skip, limit);
    },
    async rename(workspaceId: string, id: string, name: string): Promise<SkillRow | undefined> {
      const [skill] = await database
        .update(skills)
        .set({ name, updatedAt: new Date() })
        .where(and(ofWorkspace(workspaceId), eq(skills.id, id)))
        .returning();
      return skill;
    },
    async remove(workspaceId: string, id: string): Promise<boolean> {
      const removed = await database
        .delete(skills)
        .where(and(ofWorkspace(workspaceId), eq(skills.id, id)))
        .returning({ id: skills.id });
      return removed.length > 0;
    },
  };
}

export type SkillRepository = ReturnType<typeof createSkillRepository>;
