import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { newestFirst, tablePage } from '../../../platform/database/pages.js';
import { generations } from '../../runtime/generations/tables.js';
import { monitors } from './tables.js';

export type MonitorRow = typeof monitors.$inferSelect;

/** What a monitor reads of a generation to score it. */
export type MonitoredGeneration = Pick<
  typeof generations.$inferSelect,
  'id' | 'input' | 'output' | 'latencyMs' | 'cost' | 'createdAt'
>;

/** Sorts before every generation of the same instant: a mark that names no generation yet. */
const noGeneration = '00000000-0000-0000-0000-000000000000';

const live = (workspaceId: string) => and(eq(monitors.workspaceId, workspaceId), isNull(monitors.deletedAt));

export function createMonitorRepository(database: Database) {
  return {
    async insert(row: typeof monitors.$inferInsert): Promise<MonitorRow> {
      const [monitor] = await database.insert(monitors).values(row).returning();
      return monitor!;
    },

    async find(workspaceId: string, id: string): Promise<MonitorRow | undefined> {
      const [row] = await database
        .select()
        .from(monitors)
        .where(and(live(workspaceId), eq(monitors.id, id)));
      return row;
    },

    async list(workspaceId: string, skip: number, limit: number, actionId?: string) {
      const where = and(live(workspaceId), actionId ? eq(monitors.actionId, actionId) : undefined);
      return tablePage(database, monitors, where, newestFirst(monitors), skip, limit);
    },

    async update(
      workspaceId: string,
      id: string,
      changes: Partial<Pick<MonitorRow, 'evaluatorIds' | 'sampleRate' | 'environment' | 'deletedAt'>>,
    ): Promise<MonitorRow | undefined> {
      const [row] = await database
        .update(monitors)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(live(workspaceId), eq(monitors.id, id)))
        .returning();
      return row;
    },

    /**
     * The monitor's next generations after its mark, in the order they were made: runs by
     * applications only (no generations of an evaluation, no unsaved drafts), and none younger than `settleMs`, so
     * a generation whose transaction commits late is not passed over.
     */
    async nextGenerations(
      monitor: MonitorRow,
      settleMs: number,
      limit: number,
    ): Promise<MonitoredGeneration[]> {
      // The mark is compared in SQL: read into a Date it would lose its microseconds.
      const mark = sql`(SELECT ${monitors.scannedUntil}, coalesce(${monitors.scannedId}, ${noGeneration}::uuid)
        FROM ${monitors} WHERE ${monitors.id} = ${monitor.id})`;
      return database
        .select({
          id: generations.id,
          input: generations.input,
          output: generations.output,
          latencyMs: generations.latencyMs,
          cost: generations.cost,
          createdAt: generations.createdAt,
        })
        .from(generations)
        .where(
          and(
            eq(generations.workspaceId, monitor.workspaceId),
            eq(generations.actionId, monitor.actionId),
            ne(generations.source, 'evaluation'),
            sql`${generations.version} IS NOT NULL`,
            monitor.environment ? eq(generations.environment, monitor.environment) : undefined,
            sql`(${generations.createdAt}, ${generations.id}) > ${mark}`,
            sql`${generations.createdAt} < now() - make_interval(secs => ${settleMs / 1000})`,
          ),
        )
        .orderBy(asc(generations.createdAt), asc(generations.id))
        .limit(limit);
    },

    /** Moves the mark past `lastId`, once the sweep's scores are stored. */
    async moveMark(monitorId: string, lastId: string): Promise<void> {
      await database
        .update(monitors)
        .set({
          scannedUntil: sql`(SELECT ${generations.createdAt} FROM ${generations} WHERE ${generations.id} = ${lastId})`,
          scannedId: lastId,
        })
        .where(eq(monitors.id, monitorId));
    },
  };
}

export type MonitorRepository = ReturnType<typeof createMonitorRepository>;
