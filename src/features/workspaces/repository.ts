import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Page } from '../../core/pagination.js';
import type { Database } from '../../platform/database/connection.js';
import { newestFirst, totalOf } from '../../platform/database/pages.js';
import { apiKeys, workspaces } from '../../platform/database/schema.js';

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

export function createWorkspaceRepository(database: Database) {
  return {
    async insertWorkspace(
      row: typeof workspaces.$inferInsert,
      firstKey: typeof apiKeys.$inferInsert,
    ): Promise<WorkspaceRow> {
      return database.transaction(async (transaction) => {
        const [workspace] = await transaction.insert(workspaces).values(row).returning();
        await transaction.insert(apiKeys).values(firstKey);
        return workspace!;
      });
    },

    /** Creates the first workspace unless one exists; the advisory lock makes concurrent nodes agree. */
    async insertFirstWorkspace(
      row: typeof workspaces.$inferInsert,
      firstKey: typeof apiKeys.$inferInsert,
    ): Promise<boolean> {
      return database.transaction(async (transaction) => {
        await transaction.execute(sql`SELECT pg_advisory_xact_lock(4242002)`);
        const [existing] = await transaction.select({ id: workspaces.id }).from(workspaces).limit(1);
        if (existing) return false;
        await transaction.insert(workspaces).values(row);
        await transaction.insert(apiKeys).values(firstKey);
        return true;
      });
    },

    async updateSettings(id: string, settings: WorkspaceRow['settings']): Promise<WorkspaceRow | undefined> {
      const [row] = await database
        .update(workspaces)
        .set({ settings: sql`${workspaces.settings} || ${JSON.stringify(settings)}::jsonb` })
        .where(eq(workspaces.id, id))
        .returning();
      return row;
    },

    async renameWorkspace(id: string, name: string): Promise<WorkspaceRow | undefined> {
      const [row] = await database.update(workspaces).set({ name }).where(eq(workspaces.id, id)).returning();
      return row;
    },

    /** Whether the instance holds exactly one workspace (reads at most two rows). */
    async hasSingleWorkspace(): Promise<boolean> {
      const rows = await database.select({ id: workspaces.id }).from(workspaces).limit(2);
      return rows.length === 1;
    },

    async findWorkspace(id: string): Promise<WorkspaceRow | undefined> {
      const [row] = await database.select().from(workspaces).where(eq(workspaces.id, id));
      return row;
    },

    async findWorkspaceByName(name: string): Promise<WorkspaceRow | undefined> {
      const [row] = await database
        .select()
        .from(workspaces)
        .where(eq(workspaces.name, name))
        .orderBy(workspaces.createdAt)
        .limit(1);
      return row;
    },

    async listWorkspaces(skip: number, limit: number): Promise<{ rows: WorkspaceRow[]; total: number }> {
      const rows = await database
        .select()
        .from(workspaces)
        .orderBy(...newestFirst(workspaces))
        .offset(skip)
        .limit(limit);
      return { rows, total: await totalOf(database, workspaces) };
    },

    /**
     * A new key unless the workspace already has `limit` live (unrevoked) keys: undefined then. The
     * workspace's row is locked while counting, so concurrent creations cannot pass the limit together.
     */
    async insertApiKeyWithin(
      row: typeof apiKeys.$inferInsert,
      limit: number,
    ): Promise<ApiKeyRow | undefined> {
      return database.transaction(async (transaction) => {
        await transaction.execute(sql`SELECT id FROM ${workspaces} WHERE id = ${row.workspaceId} FOR UPDATE`);
        const [live] = await transaction
          .select({ value: count() })
          .from(apiKeys)
          .where(and(eq(apiKeys.workspaceId, row.workspaceId), isNull(apiKeys.revokedAt)));
        if ((live?.value ?? 0) >= limit) return undefined;
        const [key] = await transaction.insert(apiKeys).values(row).returning();
        return key;
      });
    },

    /** A page of the workspace's keys, newest first (revoked ones included). */
    async listApiKeys(workspaceId: string, skip: number, limit: number): Promise<Page<ApiKeyRow>> {
      const scope = eq(apiKeys.workspaceId, workspaceId);
      const rows = await database
        .select()
        .from(apiKeys)
        .where(scope)
        .orderBy(...newestFirst(apiKeys))
        .offset(skip)
        .limit(limit);
      return { rows, total: await totalOf(database, apiKeys, scope) };
    },

    async revokeApiKey(id: string): Promise<ApiKeyRow | undefined> {
      const [key] = await database
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
        .returning();
      return key;
    },

    async findApiKey(id: string): Promise<ApiKeyRow | undefined> {
      const [key] = await database.select().from(apiKeys).where(eq(apiKeys.id, id));
      return key;
    },

    /** The workspace of a live key, by the key's hash. */
    async findWorkspaceByKeyHash(
      keyHash: string,
    ): Promise<{ workspace: WorkspaceRow; keyId: string } | undefined> {
      const [row] = await database
        .select({ workspace: workspaces, keyId: apiKeys.id })
        .from(apiKeys)
        .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
        .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
      return row;
    },
  };
}

export type WorkspaceRepository = ReturnType<typeof createWorkspaceRepository>;
