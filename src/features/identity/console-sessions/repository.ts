import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { rowsOf } from '../../../platform/database/connection.js';
import { consoleSessions } from './tables.js';

/** A live session: its workspace, and the key it was exchanged for or the person who signed in. */
export type LiveSession = {
  id: string;
  lastSeenAt: Date;
  workspaceId: string;
  apiKeyId: string | null;
  userId: string | null;
};

/** Whose sessions: those made with one key, or one person's. */
export type SessionHolder = { apiKeyId: string } | { personId: string };

const heldBy = (holder: SessionHolder) =>
  'apiKeyId' in holder
    ? eq(consoleSessions.apiKeyId, holder.apiKeyId)
    : eq(consoleSessions.userId, holder.personId);

export function createConsoleSessionRepository(database: Database) {
  return {
    async insert(row: typeof consoleSessions.$inferInsert): Promise<void> {
      await database.insert(consoleSessions).values(row);
    },

    /**
     * The session of a token hash, unless revoked, idle since before `activeSince` or begun before
     * `begunSince` (its absolute lifetime). Whether its key or person still may is the caller's to ask.
     */
    async findLive(tokenHash: string, activeSince: Date, begunSince: Date): Promise<LiveSession | undefined> {
      const [row] = await database
        .select({
          id: consoleSessions.id,
          lastSeenAt: consoleSessions.lastSeenAt,
          workspaceId: consoleSessions.workspaceId,
          apiKeyId: consoleSessions.apiKeyId,
          userId: consoleSessions.userId,
        })
        .from(consoleSessions)
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

    /** Ends the holder's live sessions but its `keep` newest; how many were ended. */
    async revokeBeyond(holder: SessionHolder, keep: number, at: Date): Promise<number> {
      const live = and(heldBy(holder), isNull(consoleSessions.revokedAt));
      const result = await database.execute(sql`
        UPDATE ${consoleSessions} SET revoked_at = ${at}
        WHERE ${live} AND id NOT IN (
          SELECT id FROM ${consoleSessions} WHERE ${live}
          ORDER BY created_at DESC, id DESC LIMIT ${keep})
        RETURNING id`);
      return rowsOf(result).length;
    },

    /** Ends every live session of the holder ("sign out everywhere"); how many were ended. */
    async revokeAllOf(holder: SessionHolder, at: Date): Promise<number> {
      const ended = await database
        .update(consoleSessions)
        .set({ revokedAt: at })
        .where(and(heldBy(holder), isNull(consoleSessions.revokedAt)))
        .returning({ id: consoleSessions.id });
      return ended.length;
    },

    /**
     * Ends a person's live sessions: those in one workspace, or all of them, but the one whose
     * token hash is `exceptHash` (the session that asked). How many were ended.
     */
    async revokeOfPerson(
      userId: string,
      scope: { workspaceId?: string; exceptHash?: string },
      at: Date,
    ): Promise<number> {
      const ended = await database
        .update(consoleSessions)
        .set({ revokedAt: at })
        .where(
          and(
            eq(consoleSessions.userId, userId),
            isNull(consoleSessions.revokedAt),
            scope.workspaceId === undefined ? undefined : eq(consoleSessions.workspaceId, scope.workspaceId),
            scope.exceptHash === undefined ? undefined : ne(consoleSessions.tokenHash, scope.exceptHash),
          ),
        )
        .returning({ id: consoleSessions.id });
      return ended.length;
    },

    /** Moves a person's session to another workspace (the workspace switcher). */
    async moveToWorkspace(id: string, workspaceId: string): Promise<void> {
      await database.update(consoleSessions).set({ workspaceId }).where(eq(consoleSessions.id, id));
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
