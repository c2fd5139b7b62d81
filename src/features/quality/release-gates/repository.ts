import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { rowsOf } from '../../../platform/database/connection.js';
import { actions } from '../../authoring/actions/tables.js';
import { releaseGates, versionApprovals } from './tables.js';

export type GateRow = typeof releaseGates.$inferSelect;
export type ApprovalRow = typeof versionApprovals.$inferSelect;

const gateOf = (actionId: string, environment: string) =>
  and(eq(releaseGates.actionId, actionId), eq(releaseGates.environment, environment));

export function createReleaseGateRepository(database: Database) {
  return {
    async save(row: typeof releaseGates.$inferInsert): Promise<GateRow> {
      const { actionId: _action, environment: _environment, createdAt: _created, ...changes } = row;
      const [saved] = await database
        .insert(releaseGates)
        .values(row)
        .onConflictDoUpdate({
          target: [releaseGates.actionId, releaseGates.environment],
          set: { ...changes, updatedAt: new Date() },
        })
        .returning();
      return saved!;
    },

    /**
     * The gate, its row locked until the transaction ends when `lock`: a deploy reads it that way, so
     * a change of the gate waits for the deploy (or the deploy for the change).
     */
    async find(actionId: string, environment: string, lock = false): Promise<GateRow | undefined> {
      const query = database.select().from(releaseGates).where(gateOf(actionId, environment));
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },

    /**
     * The gates of live Actions that read a dataset or an evaluator, named by the Action's slug and
     * the environment: what removing that dataset or evaluator would leave refusing every deploy.
     */
    async gatesUsing(
      workspaceId: string,
      used: { datasetId: string } | { evaluatorId: string },
    ): Promise<{ action: string; environment: string }[]> {
      const reads =
        'datasetId' in used
          ? sql`${releaseGates.datasetId} = ${used.datasetId}`
          : sql`${releaseGates.evaluatorIds} @> ${JSON.stringify([used.evaluatorId])}::jsonb`;
      return database
        .select({ action: actions.slug, environment: releaseGates.environment })
        .from(releaseGates)
        .innerJoin(actions, eq(actions.id, releaseGates.actionId))
        .where(and(eq(actions.workspaceId, workspaceId), isNull(actions.deletedAt), reads))
        .orderBy(asc(actions.slug), asc(releaseGates.environment));
    },

    async environmentsOf(actionId: string): Promise<string[]> {
      const rows = await database
        .select({ environment: releaseGates.environment })
        .from(releaseGates)
        .where(eq(releaseGates.actionId, actionId));
      return rows.map((row) => row.environment);
    },

    async remove(actionId: string, environment: string): Promise<boolean> {
      const rows = await database.delete(releaseGates).where(gateOf(actionId, environment)).returning();
      return rows.length > 0;
    },

    async approve(actionId: string, version: number, userId: string): Promise<void> {
      await database.insert(versionApprovals).values({ actionId, version, userId }).onConflictDoNothing();
    },

    async withdraw(actionId: string, version: number, userId: string): Promise<boolean> {
      const rows = await database
        .delete(versionApprovals)
        .where(
          and(
            eq(versionApprovals.actionId, actionId),
            eq(versionApprovals.version, version),
            eq(versionApprovals.userId, userId),
          ),
        )
        .returning();
      return rows.length > 0;
    },

    async approvals(actionId: string, version: number): Promise<ApprovalRow[]> {
      return database
        .select()
        .from(versionApprovals)
        .where(and(eq(versionApprovals.actionId, actionId), eq(versionApprovals.version, version)))
        .orderBy(asc(versionApprovals.createdAt));
    },

    /**
     * Approvals that count: by members who are admins or owners of the workspace now (a demoted
     * admin's approval no longer counts), other than the version's author.
     */
    async countingApprovals(
      workspaceId: string,
      actionId: string,
      version: number,
      authorId: string | null,
    ): Promise<number> {
      const [row] = rowsOf<{ approvals: number }>(
        await database.execute(sql`
          SELECT count(*)::int AS approvals FROM ${versionApprovals} approval
          JOIN memberships member ON member.user_id::text = approval.user_id AND member.workspace_id = ${workspaceId}
          WHERE approval.action_id = ${actionId} AND approval.version = ${version}
            AND member.role IN ('admin', 'owner') AND approval.user_id <> ${authorId ?? ''}`),
      );
      return row?.approvals ?? 0;
    },
  };
}

export type ReleaseGateRepository = ReturnType<typeof createReleaseGateRepository>;
