import { and, eq, gt, isNull } from 'drizzle-orm';
import type { WorkspaceSettings } from '../../core/json-columns.js';
import type { Database } from '../../platform/database/connection.js';
import { apiKeys, consoleSessions, workspaces } from '../../platform/database/schema.js';

/** A live session with what a request needs of its workspace and key. */
export type LiveSession = {
  id: string;
  lastSeenAt: Date;
  workspace: { id: string; name: string; settings: WorkspaceSettings };
  apiKeyId: string;
};

export function createConsoleSessionRepository(database: Database) {
  return {
    async insert(row: typeof consoleSessions.$inferInsert): Promise<void> {
      await database.insert(consoleSessions).values(row);
    },

    /** The session of a token hash, unless revoked, idle since before `activeSince`, or its key revoked. */
    async findLive(tokenHash: string, activeSince: Date): Promise<LiveSession | undefined> {
      const [row] = await database
        .select({
          id: consoleSessions.id,
          lastSeenAt: consoleSessions.lastSeenAt,
          apiKeyId: consoleSessions.apiKeyId,
          workspace: { id: workspaces.id, name: workspaces.name, settings: workspaces.settings },
        })
        .from(consoleSessions)
        .innerJoin(apiKeys, and(eq(apiKeys.id, consoleSessions.apiKeyId), isNull(apiKeys.revokedAt)))
        .innerJoin(workspaces, eq(workspaces.id, consoleSessions.workspaceId))
        .where(
          and(
            eq(consoleSessions.tokenHash, tokenHash),
            isNull(consoleSessions.revokedAt),
            gt(consoleSessions.lastSeenAt, activeSince),
          ),
        );
      return row;
    },

    async touch(id: string, at: Date): Promise<void> {
      await database.update(consoleSessions).set({ lastSeenAt: at }).where(eq(consoleSessions.id, id));
    },

    async revoke(tokenHash: string, at: Date): Promise<void> {
      await database
        .update(consoleSessions)
        .set({ revokedAt: at })
        .where(and(eq(consoleSessions.tokenHash, tokenHash), isNull(consoleSessions.revokedAt)));
    },
  };
}

export type ConsoleSessionRepository = ReturnType<typeof createConsoleSessionRepository>;
