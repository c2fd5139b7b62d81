import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../../platform/database/connection.js';
import { newestFirst, tablePage } from '../../../platform/database/pages.js';
import { feedback } from '../feedback/tables.js';
import { generations } from '../generations/tables.js';
import { experiments } from './tables.js';

export type ExperimentRow = typeof experiments.$inferSelect;

export function createExperimentRepository(database: Database) {
  const live = (workspaceId: string, id: string) =>
    and(eq(experiments.workspaceId, workspaceId), eq(experiments.id, id), isNull(experiments.deletedAt));

  return {
    async insert(row: typeof experiments.$inferInsert): Promise<ExperimentRow> {
      const [inserted] = await database.insert(experiments).values(row).returning();
      return inserted!;
    },

    async find(workspaceId: string, id: string): Promise<ExperimentRow | undefined> {
      const [row] = await database.select().from(experiments).where(live(workspaceId, id));
      return row;
    },

    async list(workspaceId: string, skip: number, limit: number) {
      const scope = and(eq(experiments.workspaceId, workspaceId), isNull(experiments.deletedAt));
      return tablePage(database, experiments, scope, newestFirst(experiments), skip, limit);
    },

    async update(
      workspaceId: string,
      id: string,
      changes: Partial<
        Pick<
          ExperimentRow,
          'name' | 'primaryActionId' | 'secondaryActionId' | 'split' | 'status' | 'deletedAt'
        >
      >,
    ): Promise<ExperimentRow | undefined> {
      const [row] = await database
        .update(experiments)
        .set({ ...changes, updatedAt: new Date() })
        .where(live(workspaceId, id))
        .returning();
      return row;
    },

    /** Generations per Action of the experiment. */
    async runCounts(experimentId: string): Promise<{ actionId: string; runs: number }[]> {
      const rows = await database
        .select({ actionId: generations.actionId, runs: count() })
        .from(generations)
        .where(eq(generations.experimentId, experimentId))
        .groupBy(generations.actionId);
      // An experiment's runs are its Actions': only a traced call has none.
      return rows.flatMap(({ actionId, runs }) => (actionId ? [{ actionId, runs }] : []));
    },

    /** Non-deleted feedback per Action, type and value. */
    async feedbackCounts(experimentId: string) {
      const result = await database.execute(sql`
        SELECT ${generations.actionId} AS action_id, ${feedback.type} AS type, ${feedback.value} AS value, count(*)::int AS count
        FROM ${feedback} JOIN ${generations} ON ${feedback.generationId} = ${generations.id}
        WHERE ${generations.experimentId} = ${experimentId} AND NOT ${feedback.deleted}
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`);
      return rowsOf<{ action_id: string; type: string; value: string; count: number }>(result);
    },
  };
}

export type ExperimentRepository = ReturnType<typeof createExperimentRepository>;
