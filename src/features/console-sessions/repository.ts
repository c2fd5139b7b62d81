import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { WorkspaceSettings } from '../../core/json-columns.js';
import type { Database } from '../../platform/database/connection.js';
import { rowsOf } from '../../platform/database/connection.js';
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

    /**
     * The session of a token hash, unless revoked, idle since before `activeSince`, begun before
     * `begunSince` (its absolute lifetime), or its key revoked.
     */
    async findLive(tokenHash: string, activeSince: Date, begunSince: Date): Promise<LiveSession | undefined> {
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
            gt(consoleSessions.createdAt, begunSince),
          ),
        );
      return row;
    },

    async touch(id: string, at: Date): Promise<void> {
      await database.update(consoleSessions).set({ lastSeenAt: at }).where(eq(consoleSessions.id, id));
    },

    /** Ends the key's live sessions but its `keep` newest; how many were ended. */
    async revokeBeyond(apiKeyId: string, keep: number, at: Date): Promise<number> {
      const result = await database.execute(sql`
        UPDATE ${consoleSessions} SET revoked_at = ${at}
        WHERE api_key_id = ${apiKeyId} AND revoked_at IS NULL AND id NOT IN (
          SELECT id FROM ${consoleSessions} WHERE api_key_id = ${apiKeyId} AND revoked_at IS NULL
          ORDER BY created_at DESC, id DESC LIMIT ${keep})
        RETURNING id`);
      return rowsOf(result).length;
    },

    /** Ends every live session of the key ("sign out everywhere"); how many were ended. */
    async revokeAllOfKey(apiKeyId: string, at: Date): Promise<number> {
      const ended = await database
        .update(consoleSessions)
        .set({ revokedAt: at })
        .where(and(eq(consoleSessions.apiKeyId, apiKeyId), isNull(consoleSessions.revokedAt)))
        .returning({ id: consoleSessions.id });
      return ended.length;
    },

    /**
     * Deletes up to `batch` sessions that can never be used again: signed out or ended, idle since
     * before `activeSince`, or begun before `begunSince`. How many were deleted.
     */
    async deleteEnded(activeSince: Date, begunSince: Date, batch: number): Promise<number> {
      const result = await database.execute(sql`
        DELETE FROM ${consoleSessions} WHERE id IN (
          SELECT id FROM ${consoleSessions}
          WHERE revoked_at IS NOT NULL OR last_seen_at <= ${activeSince} OR created_at <= ${begunSince}
          LIMIT ${batch})
        RETURNING id`);
      return rowsOf(result).length;
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
