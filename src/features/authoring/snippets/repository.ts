import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { inFolder, pageWithTotal, tablePage, totalOf } from '../../../platform/database/pages.js';
import { actionDeployments, actions, actionVersions } from '../actions/tables.js';
import { snippets, snippetVersions } from './tables.js';

export type SnippetRow = typeof snippets.$inferSelect;
export type SnippetVersionRow = typeof snippetVersions.$inferSelect;
export type SnippetWithContent = { snippet: SnippetRow; content: string };

/** An Action whose latest version includes a snippet, and the snippet version it pinned. */
export type DependentRow = { actionId: string; slug: string; version: number; pinnedVersion: number };

/** The workspace's snippets that are not deleted. */
const live = (workspaceId: string) => and(eq(snippets.workspaceId, workspaceId), isNull(snippets.deletedAt));

const latestVersionJoin = and(
  eq(snippetVersions.snippetId, snippets.id),
  eq(snippetVersions.version, snippets.latestVersion),
);

/** Action versions that pin this snippet (by GUID: a later namesake is another snippet). */
const pinning = (snippet: { id: string; name: string }) =>
  sql`${actionVersions.snippets} -> ${snippet.name} ->> 'guid' = ${snippet.id}`;

/** The workspace's Actions that are not deleted. */
const liveActions = (workspaceId: string) =>
  and(eq(actions.workspaceId, workspaceId), isNull(actions.deletedAt));

/** A snippet by GUID or by name. */
export type SnippetKey = { id: string } | { name: string };
const matching = (key: SnippetKey) => ('id' in key ? eq(snippets.id, key.id) : eq(snippets.name, key.name));

export function createSnippetRepository(database: Database) {
  return {
    async insert(
      row: typeof snippets.$inferInsert,
      content: string,
      savedById: string | null,
    ): Promise<void> {
      await database.transaction(async (transaction) => {
        await transaction.insert(snippets).values(row);
        await transaction
          .insert(snippetVersions)
          .values({ snippetId: row.id, version: row.latestVersion, content, savedById });
      });
    },

    async find(workspaceId: string, key: SnippetKey): Promise<SnippetWithContent | undefined> {
      const [row] = await database
        .select({ snippet: snippets, content: snippetVersions.content })
        .from(snippets)
        .innerJoin(snippetVersions, latestVersionJoin)
        .where(and(live(workspaceId), matching(key)));
      return row;
    },

    /** The latest versions of the named live snippets. */
    async findByNames(workspaceId: string, names: string[]): Promise<SnippetWithContent[]> {
      if (names.length === 0) return [];
      return database
        .select({ snippet: snippets, content: snippetVersions.content })
        .from(snippets)
        .innerJoin(snippetVersions, latestVersionJoin)
        .where(and(live(workspaceId), inArray(snippets.name, names)));
    },

    /** One version of a live snippet, by name. */
    async findVersionByName(
      workspaceId: string,
      name: string,
      version: number,
    ): Promise<SnippetWithContent | undefined> {
      const [row] = await database
        .select({ snippet: snippets, content: snippetVersions.content })
        .from(snippets)
        .innerJoin(
          snippetVersions,
          and(eq(snippetVersions.snippetId, snippets.id), eq(snippetVersions.version, version)),
        )
        .where(and(live(workspaceId), eq(snippets.name, name)));
      return row;
    },

    async list(workspaceId: string, skip: number, limit: number, folder?: string) {
      const scope = and(
        live(workspaceId),
        folder === undefined ? undefined : inFolder(snippets.folder, folder),
      );
      return pageWithTotal(
        database
          .select({ snippet: snippets, content: snippetVersions.content })
          .from(snippets)
          .innerJoin(snippetVersions, latestVersionJoin)
          .where(scope)
          .orderBy(asc(snippets.folder), asc(snippets.name))
          .offset(skip)
          .limit(limit),
        totalOf(database, snippets, scope),
      );
    },

    async listVersions(snippetId: string, skip: number, limit: number) {
      const scope = eq(snippetVersions.snippetId, snippetId);
      return tablePage(database, snippetVersions, scope, [desc(snippetVersions.version)], skip, limit);
    },

    /**
     * Saves the snippet's changes; a new content makes the next version. Under the row's lock, so
     * `baseVersion` (when given) is compared with the version a concurrent save may just have made.
     */
    async update(
      workspaceId: string,
      snippetId: string,
      changes: { content?: string; description?: string; folder?: string; savedById: string | null },
      baseVersion: number | undefined,
    ): Promise<{ conflict: number } | { saved: number | undefined } | undefined> {
      return database.transaction(async (transaction) => {
        const [locked] = await transaction
          .select({ latestVersion: snippets.latestVersion })
          .from(snippets)
          .where(and(live(workspaceId), eq(snippets.id, snippetId)))
          .for('update');
        if (!locked) return undefined;
        if (baseVersion !== undefined && baseVersion !== locked.latestVersion)
          return { conflict: locked.latestVersion };
        const [latest] = await transaction
          .select({ content: snippetVersions.content })
          .from(snippetVersions)
          .where(
            and(eq(snippetVersions.snippetId, snippetId), eq(snippetVersions.version, locked.latestVersion)),
          );
        const next =
          changes.content !== undefined && changes.content !== latest?.content
            ? locked.latestVersion + 1
            : undefined;
        if (next !== undefined)
          await transaction
            .insert(snippetVersions)
            .values({ snippetId, version: next, content: changes.content!, savedById: changes.savedById });
        await transaction
          .update(snippets)
          .set({
            ...(changes.description !== undefined && { description: changes.description }),
            ...(changes.folder !== undefined && { folder: changes.folder }),
            ...(next !== undefined && { latestVersion: next }),
            updatedAt: new Date(),
          })
          .where(eq(snippets.id, snippetId));
        return { saved: next };
      });
    },

    async softDelete(workspaceId: string, snippetId: string): Promise<boolean> {
      const removed = await database
        .update(snippets)
        .set({ deletedAt: new Date() })
        .where(and(live(workspaceId), eq(snippets.id, snippetId)))
        .returning({ id: snippets.id });
      return removed.length > 0;
    },

    /** The live Actions whose latest version pins the snippet. */
    async dependents(workspaceId: string, snippet: { id: string; name: string }): Promise<DependentRow[]> {
      const pin = sql`${actionVersions.snippets} -> ${snippet.name}`;
      return database
        .select({
          actionId: actions.id,
          slug: actions.slug,
          version: actionVersions.version,
          pinnedVersion: sql<number>`(${pin} ->> 'version')::int`,
        })
        .from(actions)
        .innerJoin(
          actionVersions,
          and(eq(actionVersions.actionId, actions.id), eq(actionVersions.version, actions.latestVersion)),
        )
        .where(and(liveActions(workspaceId), pinning(snippet)))
        .orderBy(asc(actions.slug));
    },

    /** Slugs of the live Actions with a deployed version that pins the snippet. */
    async deployedDependents(workspaceId: string, snippet: { id: string; name: string }): Promise<string[]> {
      const rows = await database
        .selectDistinct({ slug: actions.slug })
        .from(actions)
        .innerJoin(actionDeployments, eq(actionDeployments.actionId, actions.id))
        .innerJoin(
          actionVersions,
          and(eq(actionVersions.actionId, actions.id), eq(actionVersions.version, actionDeployments.version)),
        )
        .where(and(liveActions(workspaceId), pinning(snippet)))
        .orderBy(asc(actions.slug));
      return rows.map((row) => row.slug);
    },
  };
}

export type SnippetRepository = ReturnType<typeof createSnippetRepository>;
