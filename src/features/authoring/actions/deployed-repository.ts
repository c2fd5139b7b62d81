import { and, asc, eq, isNull, type SQL } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import type { ActionRow, ActionVersionRow } from './repository.js';
import { actionDeployments, actions, actionVersions } from './tables.js';
import { runnableVersion } from './version.js';

/** A version as deployed: the Action, the environment, the version's content and when it went there. */
export type DeployedVersion = {
  action: ActionRow;
  environment: string;
  version: ActionVersionRow;
  deployedAt: Date;
};

/** Which deployments: one Action's (by GUID or slug) or all of them; one environment or each Action's default. */
export type DeployedSelection = {
  action?: { id: string } | { slug: string };
  environment?: string;
};

/** The deployed versions of the workspace's Actions that run (neither deleted nor disabled). */
export function createDeployedVersionRepository(database: Database) {
  return {
    async find(workspaceId: string, selection: DeployedSelection, limit = 1000): Promise<DeployedVersion[]> {
      const conditions: SQL[] = [
        eq(actions.workspaceId, workspaceId),
        isNull(actions.deletedAt),
        eq(actions.disabled, false),
        selection.environment === undefined
          ? eq(actionDeployments.environment, actions.defaultEnvironment)
          : eq(actionDeployments.environment, selection.environment),
      ];
      if (selection.action) {
        conditions.push(
          'id' in selection.action
            ? eq(actions.id, selection.action.id)
            : eq(actions.slug, selection.action.slug),
        );
      }
      const rows = await database
        .select({
          action: actions,
          environment: actionDeployments.environment,
          version: actionVersions,
          deployedAt: actionDeployments.updatedAt,
        })
        .from(actions)
        .innerJoin(actionDeployments, eq(actionDeployments.actionId, actions.id))
        .innerJoin(
          actionVersions,
          and(eq(actionVersions.actionId, actions.id), eq(actionVersions.version, actionDeployments.version)),
        )
        .where(and(...conditions))
        .orderBy(asc(actions.slug))
        .limit(limit);
      return rows.map((row) => ({ ...row, version: runnableVersion(row.version) }));
    },
  };
}

export type DeployedVersionRepository = ReturnType<typeof createDeployedVersionRepository>;
