import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { idempotentRequests } from './tables.js';

export type IdempotentRequestRow = typeof idempotentRequests.$inferSelect;

const key = (workspaceId: string, requestKey: string) =>
  and(eq(idempotentRequests.workspaceId, workspaceId), eq(idempotentRequests.key, requestKey));

export function createIdempotentRequestRepository(database: Database) {
  return {
    /** True when this call recorded the key first (a concurrent first request makes it false). */
    async claim(workspaceId: string, requestKey: string, fingerprint: string): Promise<boolean> {
      const inserted = await database
        .insert(idempotentRequests)
        .values({ workspaceId, key: requestKey, fingerprint })
        .onConflictDoNothing()
        .returning({ key: idempotentRequests.key });
      return inserted.length > 0;
    },

    async find(workspaceId: string, requestKey: string): Promise<IdempotentRequestRow | undefined> {
      const [row] = await database.select().from(idempotentRequests).where(key(workspaceId, requestKey));
      return row;
    },

    /**
     * Takes over a key whose first request never finished (its node died) or that has expired: true
     * when this call did, so exactly one retry runs again.
     */
    async takeOver(
      workspaceId: string,
      requestKey: string,
      fingerprint: string,
      stale: { runningBefore: Date; answeredBefore: Date; now: Date },
    ): Promise<boolean> {
      const abandoned = and(
        isNull(idempotentRequests.response),
        lt(idempotentRequests.createdAt, stale.runningBefore),
      );
      const expired = lt(idempotentRequests.createdAt, stale.answeredBefore);
      const taken = await database
        .update(idempotentRequests)
        .set({ fingerprint, response: null, createdAt: stale.now })
        .where(and(key(workspaceId, requestKey), or(abandoned, expired)))
        .returning({ key: idempotentRequests.key });
      return taken.length > 0;
    },

    async answer(workspaceId: string, requestKey: string, response: unknown): Promise<void> {
      await database.update(idempotentRequests).set({ response }).where(key(workspaceId, requestKey));
    },

    /** Forgets a key whose request failed, so that a retry runs it again. */
    async release(workspaceId: string, requestKey: string): Promise<void> {
      await database.delete(idempotentRequests).where(key(workspaceId, requestKey));
    },

    /** Removes keys older than `before` (all workspaces). */
    async sweep(before: Date): Promise<void> {
      await database.delete(idempotentRequests).where(lt(idempotentRequests.createdAt, before));
    },
  };
}

export type IdempotentRequestRepository = ReturnType<typeof createIdempotentRequestRepository>;
