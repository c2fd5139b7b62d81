import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Page } from '../../../core/pagination.js';
import type { MemberRole } from '../../../core/roles.js';
import type { Database } from '../../../platform/database/connection.js';
import { newestFirst, tablePage, totalOf } from '../../../platform/database/pages.js';
import { memberships, users } from '../people/tables.js';
import { apiKeys, workspaces } from './tables.js';

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
/** A key's creator as a key's listing and its requests see them: null for a creator-less key. */
export type KeyCreator = { id: string; email: string; name: string; role: MemberRole | null } | null;
export type ApiKeyWithCreator = ApiKeyRow & { creator: KeyCreator };
/** Which keys a listing holds: a person's (null: the creator-less ones), or one by GUID. */
export type KeyFilter = { createdBy?: string | null; id?: string };
/** A live key with its workspace and creator (the creator still active and a member, if it has one). */
export type KeyHolder = { workspace: WorkspaceRow; key: ApiKeyRow; creator: KeyCreator };

const creatorColumns = { id: users.id, email: users.email, name: users.name, role: memberships.role };
type JoinedCreator = {
  id: string | null;
  email: string | null;
  name: string | null;
  role: MemberRole | null;
};

/** The left-joined creator columns: all null when the key has no creator (or they are not active). */
function creatorOf(joined: JoinedCreator | null): KeyCreator {
  if (!joined?.id) return null;
  return { id: joined.id, email: joined.email ?? '', name: joined.name ?? '', role: joined.role };
}

/** A key's creator, while active; and their role in the key's workspace (none once they left). */
const activeCreator = and(eq(users.id, apiKeys.createdBy), eq(users.active, true));
const creatorMembership = and(
  eq(memberships.userId, apiKeys.createdBy),
  eq(memberships.workspaceId, apiKeys.workspaceId),
);

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
      return tablePage(database, workspaces, undefined, newestFirst(workspaces), skip, limit);
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

    /** A page of the workspace's keys with their creators, newest first (revoked ones included). */
    async listApiKeys(
      workspaceId: string,
      skip: number,
      limit: number,
      filter: KeyFilter,
    ): Promise<Page<ApiKeyWithCreator>> {
      const scope = and(
        eq(apiKeys.workspaceId, workspaceId),
        filter.createdBy === undefined
          ? undefined
          : filter.createdBy === null
            ? isNull(apiKeys.createdBy)
            : eq(apiKeys.createdBy, filter.createdBy),
        filter.id === undefined ? undefined : eq(apiKeys.id, filter.id),
      );
      const rows = await database
        .select({ key: apiKeys, creator: creatorColumns })
        .from(apiKeys)
        .leftJoin(users, eq(users.id, apiKeys.createdBy))
        .leftJoin(memberships, creatorMembership)
        .where(scope)
        .orderBy(...newestFirst(apiKeys))
        .offset(skip)
        .limit(limit);
      return {
        rows: rows.map(({ key, creator }) => ({ ...key, creator: creatorOf(creator) })),
        total: await totalOf(database, apiKeys, scope),
      };
    },

    async revokeApiKey(id: string): Promise<ApiKeyRow | undefined> {
      const [key] = await database
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
        .returning();
      return key;
    },

    /** Revokes the live keys a person made: in one workspace, or everywhere (`workspaceId` undefined). */
    async revokeApiKeysOf(userId: string, workspaceId: string | undefined): Promise<number> {
      const revoked = await database
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(
          and(
            eq(apiKeys.createdBy, userId),
            isNull(apiKeys.revokedAt),
            workspaceId === undefined ? undefined : eq(apiKeys.workspaceId, workspaceId),
          ),
        )
        .returning({ id: apiKeys.id });
      return revoked.length;
    },

    async findApiKey(id: string): Promise<ApiKeyRow | undefined> {
      const [key] = await database.select().from(apiKeys).where(eq(apiKeys.id, id));
      return key;
    },

    /**
     * A live key by its hash (a request's key) or its GUID (a console session's), with its workspace
     * and creator. A key whose creator was deactivated or left the workspace is as dead as a revoked one.
     */
    async findKeyHolder(by: { keyHash: string } | { id: string }): Promise<KeyHolder | undefined> {
      const [row] = await database
        .select({ workspace: workspaces, key: apiKeys, creator: creatorColumns })
        .from(apiKeys)
        .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
        .leftJoin(users, activeCreator)
        .leftJoin(memberships, creatorMembership)
        .where(
          and(
            'keyHash' in by ? eq(apiKeys.keyHash, by.keyHash) : eq(apiKeys.id, by.id),
            isNull(apiKeys.revokedAt),
          ),
        );
      if (!row) return undefined;
      const creator = creatorOf(row.creator);
      if (row.key.createdBy !== null && (!creator || creator.role === null)) return undefined;
      return { workspace: row.workspace, key: row.key, creator };
    },

    /** Notes a key's use (throttled by the caller: not every request writes). */
    async touchApiKey(id: string, at: Date): Promise<void> {
      await database.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
    },
  };
}

export type WorkspaceRepository = ReturnType<typeof createWorkspaceRepository>;
