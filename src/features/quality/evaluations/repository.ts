import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { EvaluationStatus } from '../../../core/wire-values.js';
import type { Database } from '../../../platform/database/connection.js';
import { rowsOf } from '../../../platform/database/connection.js';
import { newestFirst, tablePage, totalOf } from '../../../platform/database/pages.js';
import { generations } from '../../runtime/generations/tables.js';
import { datasetItems } from '../datasets/tables.js';
import { evaluationResults, evaluations } from './tables.js';

export type EvaluationRow = typeof evaluations.$inferSelect;
export type ResultRow = typeof evaluationResults.$inferSelect;

export type { EvaluationStatus };
export const endedStatuses: EvaluationStatus[] = ['SUCCESS', 'FAILED', 'CANCELLED'];

/** A result with its dataset item's input and expected output (as the version it ran on had them). */
export type ResultWithItem = ResultRow & { input: unknown; expectedOutput: string | null };

/** An item's generation as stored: its text, the model call's time and its cost. */
export type StoredGeneration = { output: string; latencyMs: number | null; costUsd: number | null };

/** Where an evaluation stands: items finished (failed ones included) and failed. */
export type Progress = { total: number; done: number; failed: number };

/** An item's run outcome and scores, written once. */
export type FinishedItem = Pick<
  ResultRow,
  'status' | 'output' | 'error' | 'scores' | 'scoreErrors' | 'latencyMs' | 'costUsd'
>;

const withItem = {
  result: evaluationResults,
  input: datasetItems.input,
  expectedOutput: datasetItems.expectedOutput,
};

const flatten = (row: { result: ResultRow; input: unknown; expectedOutput: string | null }) => ({
  ...row.result,
  input: row.input,
  expectedOutput: row.expectedOutput,
});

export function createEvaluationRepository(database: Database) {
  const scope = (workspaceId: string, id: string) =>
    and(eq(evaluations.workspaceId, workspaceId), eq(evaluations.id, id));

  /** Whether any item of the evaluation is still to be scored. */
  async function hasPending(id: string): Promise<boolean> {
    const [pending] = rowsOf<{ pending: boolean }>(
      await database.execute(
        sql`SELECT EXISTS (SELECT 1 FROM ${evaluationResults} WHERE evaluation_id = ${id} AND status = 'pending') AS pending`,
      ),
    );
    return pending?.pending ?? false;
  }

  return {
    /**
     * The evaluation and one result row per item of its dataset version, in the dataset's order,
     * each with the generation GUID it will store; the caller's transaction makes it all or nothing.
     * The number of items is the evaluation's `total`.
     */
    async insert(row: typeof evaluations.$inferInsert): Promise<EvaluationRow> {
      await database.insert(evaluations).values({ ...row, total: 0 });
      await database.execute(sql`
        INSERT INTO ${evaluationResults} (evaluation_id, position, item_row_id, item_id, generation_id)
        SELECT ${row.id}, row_number() OVER (ORDER BY position) - 1, id, item_id, gen_random_uuid()
        FROM ${datasetItems}
        WHERE dataset_id = ${row.datasetId} AND added_in <= ${row.datasetVersion}
          AND (removed_in IS NULL OR removed_in > ${row.datasetVersion})`);
      const [inserted] = await database
        .update(evaluations)
        .set({
          total: sql`(SELECT count(*) FROM ${evaluationResults} WHERE evaluation_id = ${row.id})::int`,
        })
        .where(eq(evaluations.id, row.id))
        .returning();
      return inserted!;
    },

    async find(workspaceId: string, id: string): Promise<EvaluationRow | undefined> {
      const [row] = await database.select().from(evaluations).where(scope(workspaceId, id));
      return row;
    },

    async list(workspaceId: string, skip: number, limit: number, filter: { actionId?: string }) {
      const where = and(
        eq(evaluations.workspaceId, workspaceId),
        filter.actionId ? eq(evaluations.actionId, filter.actionId) : undefined,
      );
      return tablePage(database, evaluations, where, newestFirst(evaluations), skip, limit);
    },

    /** Finished and failed items of each evaluation, in one statement. */
    async progress(ids: string[]): Promise<Map<string, Omit<Progress, 'total'>>> {
      if (ids.length === 0) return new Map();
      const rows = await database
        .select({
          id: evaluationResults.evaluationId,
          done: sql<number>`count(*) FILTER (WHERE ${evaluationResults.status} <> 'pending')::int`,
          failed: sql<number>`count(*) FILTER (WHERE ${evaluationResults.status} = 'failed')::int`,
        })
        .from(evaluationResults)
        .where(inArray(evaluationResults.evaluationId, ids))
        .groupBy(evaluationResults.evaluationId);
      return new Map(rows.map((row) => [row.id, { done: row.done, failed: row.failed }]));
    },

    /**
     * The evaluation and the next items of a chain (from `from`, stepping by `stride`, at most
     * `limit`), read together: what a chain's job needs, with each item's generation when an earlier
     * attempt stored it (then no model is called again). Undefined past the chain's end.
     */
    async itemsToRun(evaluationId: string, from: number, stride: number, limit: number) {
      const rows = await database
        .select({
          evaluation: evaluations,
          ...withItem,
          storedOutput: generations.output,
          storedLatencyMs: generations.latencyMs,
          storedCost: generations.cost,
        })
        .from(evaluationResults)
        .innerJoin(evaluations, eq(evaluations.id, evaluationResults.evaluationId))
        .innerJoin(datasetItems, eq(datasetItems.id, evaluationResults.itemRowId))
        .leftJoin(generations, eq(generations.id, evaluationResults.generationId))
        .where(
          and(
            eq(evaluationResults.evaluationId, evaluationId),
            sql`${evaluationResults.position} >= ${from} AND (${evaluationResults.position} - ${from}) % ${stride} = 0`,
          ),
        )
        .orderBy(asc(evaluationResults.position))
        .limit(limit);
      if (rows.length === 0) return undefined;
      const items = rows.map((row) => {
        const stored: StoredGeneration | undefined =
          row.storedOutput === null
            ? undefined
            : {
                output: row.storedOutput,
                latencyMs: row.storedLatencyMs,
                costUsd: row.storedCost?.generation ?? null,
              };
        return { item: flatten(row), stored };
      });
      return { evaluation: rows[0]!.evaluation, items };
    },

    /** The first item still pending of the chain that starts at `from` and steps by `stride`. */
    async firstPending(evaluationId: string, from: number, stride: number): Promise<number | undefined> {
      const [row] = await database
        .select({ position: evaluationResults.position })
        .from(evaluationResults)
        .where(
          and(
            eq(evaluationResults.evaluationId, evaluationId),
            eq(evaluationResults.status, 'pending'),
            sql`${evaluationResults.position} >= ${from} AND (${evaluationResults.position} - ${from}) % ${stride} = 0`,
          ),
        )
        .orderBy(asc(evaluationResults.position))
        .limit(1);
      return row?.position;
    },

    /** Whether the evaluation still runs (a cancel is seen before the next item starts). */
    async isRunning(id: string): Promise<boolean> {
      const [row] = await database
        .select({ status: evaluations.status })
        .from(evaluations)
        .where(eq(evaluations.id, id));
      return row?.status === 'PENDING' || row?.status === 'RUNNING';
    },

    /** Moves a PENDING evaluation to RUNNING (the first item's job does it). */
    async markRunning(id: string): Promise<void> {
      await database
        .update(evaluations)
        .set({ status: 'RUNNING', startedAt: new Date() })
        .where(and(eq(evaluations.id, id), eq(evaluations.status, 'PENDING')));
    },

    /**
     * Writes items' outcomes in one statement, each unless a duplicate delivery of its job wrote it
     * first (an outcome is written once).
     */
    async finishItems(evaluationId: string, finished: { position: number; outcome: FinishedItem }[]) {
      if (finished.length === 0) return;
      const values = sql.join(
        finished.map(
          ({ position, outcome }) =>
            sql`(${position}::int, ${outcome.status}::text, ${outcome.output}::text, ${outcome.error}::text,
              ${JSON.stringify(outcome.scores)}::jsonb, ${JSON.stringify(outcome.scoreErrors)}::jsonb,
              ${outcome.latencyMs}::int, ${outcome.costUsd}::float8)`,
        ),
        sql`, `,
      );
      await database.execute(sql`
        UPDATE ${evaluationResults} result SET status = outcome.status, output = outcome.output,
          error = outcome.error, scores = outcome.scores, score_errors = outcome.score_errors,
          latency_ms = outcome.latency_ms, cost_usd = outcome.cost_usd, finished_at = now()
        FROM (VALUES ${values}) AS outcome(position, status, output, error, scores, score_errors, latency_ms, cost_usd)
        WHERE result.evaluation_id = ${evaluationId} AND result.position = outcome.position
          AND result.status = 'pending'`);
    },

    hasPending,

    /**
     * Ends a RUNNING evaluation as SUCCESS once no item is pending, with its report. Each chain of
     * items asks when its last item is written; the last writer sees every other item written.
     */
    async finishIfComplete(id: string, report: () => Promise<Record<string, unknown>>): Promise<boolean> {
      if (await hasPending(id)) return false;
      const rows = await database
        .update(evaluations)
        .set({ status: 'SUCCESS', finishedAt: new Date(), report: await report() })
        .where(and(eq(evaluations.id, id), inArray(evaluations.status, ['PENDING', 'RUNNING'])))
        .returning({ id: evaluations.id });
      return rows.length > 0;
    },

    /** Ends an evaluation that has not ended (cancelled, or failed with `error`); false if it had. */
    async end(
      id: string,
      status: 'FAILED' | 'CANCELLED',
      fields: { error?: string; report: Record<string, unknown> },
    ): Promise<boolean> {
      const rows = await database
        .update(evaluations)
        .set({ status, finishedAt: new Date(), error: fields.error ?? null, report: fields.report })
        .where(and(eq(evaluations.id, id), inArray(evaluations.status, ['PENDING', 'RUNNING'])))
        .returning({ id: evaluations.id });
      return rows.length > 0;
    },

    /** Every finished item's scores, latency and cost: what a summary is computed from. */
    async scored(evaluationId: string) {
      return database
        .select({
          status: evaluationResults.status,
          scores: evaluationResults.scores,
          latencyMs: evaluationResults.latencyMs,
          costUsd: evaluationResults.costUsd,
        })
        .from(evaluationResults)
        .where(
          and(
            eq(evaluationResults.evaluationId, evaluationId),
            sql`${evaluationResults.status} <> 'pending'`,
          ),
        );
    },

    /** A page of results in the dataset's order, filtered by status or by one evaluator's score. */
    async results(
      evaluationId: string,
      filter: { status?: string; evaluator?: string; scoreBelow?: number },
      skip: number,
      limit: number,
    ): Promise<{ rows: ResultWithItem[]; total: number }> {
      const conditions: (SQL | undefined)[] = [eq(evaluationResults.evaluationId, evaluationId)];
      if (filter.status) conditions.push(eq(evaluationResults.status, filter.status));
      if (filter.evaluator && filter.scoreBelow !== undefined)
        conditions.push(
          sql`(${evaluationResults.scores} ->> ${filter.evaluator})::float8 < ${filter.scoreBelow}`,
        );
      const where = and(...conditions);
      const rows = await database
        .select(withItem)
        .from(evaluationResults)
        .innerJoin(datasetItems, eq(datasetItems.id, evaluationResults.itemRowId))
        .where(where)
        .orderBy(asc(evaluationResults.position))
        .offset(skip)
        .limit(limit);
      return { rows: rows.map(flatten), total: await totalOf(database, evaluationResults, where) };
    },
  };
}

export type EvaluationRepository = ReturnType<typeof createEvaluationRepository>;
