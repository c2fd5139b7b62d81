import { and, count, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { actions } from '../actions/tables.js';
import { snippets } from '../snippets/tables.js';

/** How many live Actions and snippets each folder holds itself (not those below it). */
export type FolderCount = { folder: string; kind: 'action' | 'snippet'; items: number };

export function createFolderRepository(database: Database) {
  return {
    async counts(workspaceId: string): Promise<FolderCount[]> {
      const [actionRows, snippetRows] = await Promise.all([
        database
          .select({ folder: actions.folder, items: count() })
          .from(actions)
          .where(and(eq(actions.workspaceId, workspaceId), isNull(actions.deletedAt)))
          .groupBy(actions.folder),
        database
          .select({ folder: snippets.folder, items: count() })
          .from(snippets)
          .where(and(eq(snippets.workspaceId, workspaceId), isNull(snippets.deletedAt)))
          .groupBy(snippets.folder),
      ]);
      return [
        ...actionRows.map((row) => ({ ...row, kind: 'action' as const })),
        ...snippetRows.map((row) => ({ ...row, kind: 'snippet' as const })),
      ];
    },
  };
}

export type FolderRepository = ReturnType<typeof createFolderRepository>;
