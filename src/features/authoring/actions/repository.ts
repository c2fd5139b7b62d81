import { type AnyColumn, and, desc, eq, gt, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import {
  containingPattern,
  inFolder,
  newestFirst,
  pageWithTotal,
  tablePage,
  totalOf,
} from '../../../platform/database/pages.js';
import { freeSlug } from '../../../platform/database/slugs.js';
import { actionDeployments, actions, actionVersions, releasedActionSlugs } from './tables.js';

export type ActionRow = typeof actions.$inferSelect;
export type ActionVersionRow = typeof actionVersions.$inferSelect;
export type NewActionVersion = Omit<typeof actionVersions.$inferInsert, 'actionId' | 'version'>;
export type ActionWithVersion = { action: ActionRow; version: ActionVersionRow };

/** What the Actions list narrows by: an App, text the name or slug contains, a folder and those below it. */
export type ActionListFilter = { appId?: string; text?: string; folder?: string };

/** The Action-level fields a save may change (not versioned). */
export type ActionRowChanges = Partial<
  Pick<ActionRow, 'name' | 'slug' | 'description' | 'actionType' | 'defaultEnvironment' | 'appId' | 'folder'>
>;

/** The workspace's Actions that are not deleted. */
const live = (workspaceId: string) => and(eq(actions.workspaceId, workspaceId), isNull(actions.deletedAt));

const latestVersionJoin = and(
  eq(actionVersions.actionId, actions.id),
  eq(actionVersions.version, actions.latestVersion),
);

/**
 * When an Action last ran, as a subquery of the listing's statement: the runtime wing's generations
 * answer it (one lookup per listed Action), and this wing sits below it, so it is handed in.
 */
export type LastRunAt = (workspaceId: AnyColumn, actionId: AnyColumn) => SQL<Date | string | null>;

export function createActionRepository(database: Database, lastRunAt: LastRunAt) {
  return {
    /** The Action, its version 1 and that version deployed to its default environment, all or nothing. */
    async insert(row: typeof actions.$inferInsert, version: NewActionVersion): Promise<void> {
      await database.transaction(async (transaction) => {
        await transaction.insert(actions).values(row);
        await transaction.insert(actionVersions).values({ ...version, actionId: row.id, version: 1 });
        await transaction.insert(actionDeployments).values({
          actionId: row.id,
          environment: row.defaultEnvironment ?? 'production',
          version: 1,
          deployedById: version.savedById ?? null,
        });
      });
    },

    async findLatest(
      workspaceId: string,
      where: { id: string } | { slug: string },
    ): Promise<ActionWithVersion | undefined> {
      const match = 'id' in where ? eq(actions.id, where.id) : eq(actions.slug, where.slug);
      const [row] = await database
        .select({ action: actions, version: actionVersions })
        .from(actions)
        .innerJoin(actionVersions, latestVersionJoin)
        .where(and(live(workspaceId), match));
      return row;
    },

    /** Whether the workspace has a live Action with this GUID or slug (one indexed row, no join). */
    async exists(workspaceId: string, where: { id: string } | { slug: string }): Promise<boolean> {
      const match = 'id' in where ? eq(actions.id, where.id) : eq(actions.slug, where.slug);
      const [row] = await database
        .select({ id: actions.id })
        .from(actions)
        .where(and(live(workspaceId), match))
        .limit(1);
      return row !== undefined;
    },

    async list(workspaceId: string, skip: number, limit: number, filter: ActionListFilter = {}) {
      const scope = and(
        live(workspaceId),
        filter.appId === undefined ? undefined : eq(actions.appId, filter.appId),
        filter.folder === undefined ? undefined : inFolder(actions.folder, filter.folder),
        filter.text === undefined
          ? undefined
          : or(
              sql`${actions.name} ILIKE ${containingPattern(filter.text)}`,
              sql`${actions.slug} ILIKE ${containingPattern(filter.text)}`,
            ),
      );
      return pageWithTotal(
        database
          .select({
            action: actions,
            version: actionVersions,
            lastRunAt: lastRunAt(actions.workspaceId, actions.id).mapWith((value: string | Date | null) =>
              value === null ? null : new Date(value),
            ),
          })
          .from(actions)
          .innerJoin(actionVersions, latestVersionJoin)
          .where(scope)
          .orderBy(...newestFirst(actions))
          .offset(skip)
          .limit(limit),
        totalOf(database, actions, scope),
      );
    },

    /** environment → version, per Action. */
    async deployments(actionIds: string[]): Promise<Map<string, Record<string, number>>> {
      const byAction = new Map<string, Record<string, number>>(actionIds.map((id) => [id, {}]));
      if (actionIds.length === 0) return byAction;
      const rows = await database
        .select()
        .from(actionDeployments)
        .where(inArray(actionDeployments.actionId, actionIds));
      for (const row of rows) byAction.get(row.actionId)![row.environment] = row.version;
      return byAction;
    },

    /** Whether another Action than `actionId` gave up `slug` by a rename since `since`. */
    async slugReleasedSince(
      workspaceId: string,
      slug: string,
      since: Date,
      actionId: string | undefined,
    ): Promise<boolean> {
      const [row] = await database
        .select({ actionId: releasedActionSlugs.actionId })
        .from(releasedActionSlugs)
        .where(
          and(
            eq(releasedActionSlugs.workspaceId, workspaceId),
            eq(releasedActionSlugs.slug, slug),
            gt(releasedActionSlugs.releasedAt, since),
            actionId === undefined ? undefined : ne(releasedActionSlugs.actionId, actionId),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** A slug from the name that no Action of the workspace has yet. */
    freeSlug(workspaceId: string, name: string): Promise<string> {
      return freeSlug(
        database,
        { table: actions, slug: actions.slug, workspaceId: actions.workspaceId },
        workspaceId,
        name,
        'action',
      );
    },

    /**
     * Saves the next version, built on version `basedOn`, and the Action-level changes, in one
     * transaction under the Action's lock: when another save made a newer version in between,
     * nothing is saved and the answer is that version (`conflict`).
     */
    async insertVersion(
      workspaceId: string,
      actionId: string,
      actionChanges: ActionRowChanges,
      basedOn: number,
      version: NewActionVersion,
    ): Promise<{ saved: number } | { conflict: number } | undefined> {
      return database.transaction(async (transaction) => {
        const [locked] = await transaction
          .select({ latestVersion: actions.latestVersion, slug: actions.slug })
          .from(actions)
          .where(and(live(workspaceId), eq(actions.id, actionId)))
          .for('update');
        if (!locked) return undefined;
        if (locked.latestVersion !== basedOn) return { conflict: locked.latestVersion };
        // A slug given up stays reserved for a while (slugReleasedSince).
        if (actionChanges.slug !== undefined && actionChanges.slug !== locked.slug)
          await transaction.insert(releasedActionSlugs).values({ workspaceId, slug: locked.slug, actionId });
        const next = locked.latestVersion + 1;
        await transaction.insert(actionVersions).values({ ...version, actionId, version: next });
        await transaction
          .update(actions)
          .set({ ...actionChanges, latestVersion: next, updatedAt: new Date() })
          .where(eq(actions.id, actionId));
        return { saved: next };
      });
    },

    /** Files the Action in another folder: no new version. */
    async move(workspaceId: string, actionId: string, folder: string): Promise<boolean> {
      const moved = await database
        .update(actions)
        .set({ folder, updatedAt: new Date() })
        .where(and(live(workspaceId), eq(actions.id, actionId)))
        .returning({ id: actions.id });
      return moved.length > 0;
    },

    async findVersion(actionId: string, version: number): Promise<ActionVersionRow | undefined> {
      const [row] = await database
        .select()
        .from(actionVersions)
        .where(and(eq(actionVersions.actionId, actionId), eq(actionVersions.version, version)));
      return row;
    },

    async listVersions(actionId: string, skip: number, limit: number) {
      return tablePage(
        database,
        actionVersions,
        eq(actionVersions.actionId, actionId),
        [desc(actionVersions.version)],
        skip,
        limit,
      );
    },

    async deploy(actionId: string, environment: string, version: number, by?: string): Promise<void> {
      const deployedById = by ?? null;
      await database
        .insert(actionDeployments)
        .values({ actionId, environment, version, deployedById })
        .onConflictDoUpdate({
          target: [actionDeployments.actionId, actionDeployments.environment],
          set: { version, deployedById, updatedAt: sql`now()` },
        });
      await database.update(actions).set({ updatedAt: new Date() }).where(eq(actions.id, actionId));
    },

    /** Changes an Action that is not deleted; false when there is none such. */
    async setFlags(
      workspaceId: string,
      actionId: string,
      changes: Partial<Pick<ActionRow, 'disabled' | 'deletedAt'>>,
    ): Promise<boolean> {
      const updated = await database
        .update(actions)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(live(workspaceId), eq(actions.id, actionId)))
        .returning({ id: actions.id });
      return updated.length > 0;
    },
  };
}

export type ActionRepository = ReturnType<typeof createActionRepository>;
