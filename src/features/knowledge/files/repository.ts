import { and, eq } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { files } from './tables.js';

export type FileRow = typeof files.$inferSelect;

export function createFileRepository(database: Database) {
  return {
    async insert(row: typeof files.$inferInsert): Promise<void> {
      await database.insert(files).values(row);
    },

    /** By GUID alone: a signed URL (checked before this is called) is the only authority a download needs. */
    async findBySignedId(id: string): Promise<FileRow | undefined> {
      const [row] = await database.select().from(files).where(eq(files.id, id));
      return row;
    },

    async find(workspaceId: string, id: string): Promise<FileRow | undefined> {
      const [row] = await database
        .select()
        .from(files)
        .where(and(eq(files.workspaceId, workspaceId), eq(files.id, id)));
      return row;
    },
  };
}

export type FileRepository = ReturnType<typeof createFileRepository>;
