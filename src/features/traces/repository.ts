import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { SpanStatusName } from '../../core/wire-values.js';
import { type Database, rowsOf } from '../../platform/database/connection.js';
import { totalOf } from '../../platform/database/pages.js';
import { spans, traces } from '../../platform/database/schema.js';
import { nanosPerDay, partitionName } from './span-partitions.js';

export type SpanRow = typeof spans.$inferSelect;
export type NewSpan = typeof spans.$inferInsert;
export type TraceRow = typeof traces.$inferSelect;

/** What one batch adds to a trace: its spans' bounds and counts, and the root's name once it arrives. */
export type TraceContribution = {
  traceId: string;
  startUnixNano: bigint;
  endUnixNano: bigint;
  spanCount: number;
  failed: boolean;
  root: { name: string; serviceName: string | null; status: SpanStatusName } | null;
  session: string | null;
  cost: number;
  inputTokens: number;
  outputTokens: number;
};

/** A stored span's place in its tree, for attaching model calls to the prompt version above them. */
export type SpanLink = {
  spanId: string;
  parentSpanId: string | null;
  generationId: string | null;
  action: string | null;
  version: string | null;
};

export type TraceFilter = {
  since?: bigint;
  until?: bigint;
  name?: string;
  session?: string;
  status?: 'OK' | 'ERROR' | 'UNSET';
  minimumDurationNanos?: bigint;
};

function traceConditions(workspaceId: string, filter: TraceFilter) {
  return and(
    eq(traces.workspaceId, workspaceId),
    filter.since === undefined ? undefined : gte(traces.startUnixNano, filter.since),
    filter.until === undefined ? undefined : lt(traces.startUnixNano, filter.until),
    filter.name === undefined ? undefined : eq(traces.name, filter.name),
    filter.session === undefined ? undefined : eq(traces.session, filter.session),
    filter.status === undefined
      ? undefined
      : filter.status === 'ERROR'
        ? eq(traces.failed, true)
        : sql`NOT ${traces.failed} AND coalesce(${traces.rootStatus}, 'UNSET') = ${filter.status}`,
    filter.minimumDurationNanos === undefined
      ? undefined
      : sql`${traces.endUnixNano} - ${traces.startUnixNano} >= ${filter.minimumDurationNanos}`,
  );
}

export function createTraceRepository(database: Database) {
  return {
    /** Makes the day partitions of `spans` that these days need, if they are missing. */
    async ensurePartitions(days: number[]): Promise<void> {
      for (const day of days) {
        const from = BigInt(day) * nanosPerDay;
        await database
          .execute(
            sql.raw(
              `CREATE TABLE IF NOT EXISTS "${partitionName(day)}" PARTITION OF "spans" FOR VALUES FROM (${from}) TO (${from + nanosPerDay})`,
            ),
          )
          .catch(async (error: unknown) => {
            // Two nodes making the same day at once: the loser's error is harmless if the day exists.
            const found = await database.execute(
              sql`SELECT 1 FROM pg_class WHERE relname = ${partitionName(day)}`,
            );
            if (rowsOf(found).length === 0) throw error;
          });
      }
    },

    /** The day partitions of `spans` there are, as day numbers since the epoch. */
    async partitionDays(): Promise<number[]> {
      const found = await database.execute(
        sql`SELECT child.relname AS name FROM pg_inherits
            JOIN pg_class parent ON parent.oid = pg_inherits.inhparent
            JOIN pg_class child ON child.oid = pg_inherits.inhrelid
            WHERE parent.relname = 'spans'`,
      );
      return rowsOf<{ name: string }>(found)
        .map((row) => /^spans_d(\d+)$/.exec(row.name)?.[1])
        .filter((day): day is string => day !== undefined)
        .map(Number);
    },

    /** Drops a day partition of `spans`: retention in one statement, however many spans it held. */
    async dropPartition(day: number): Promise<void> {
      await database.execute(sql.raw(`DROP TABLE IF EXISTS "${partitionName(day)}"`));
    },

    async deleteTracesBefore(startUnixNano: bigint): Promise<number> {
      const deleted = await database
        .delete(traces)
        .where(lt(traces.startUnixNano, startUnixNano))
        .returning({ traceId: traces.traceId });
      return deleted.length;
    },

    /**
     * Inserts spans; one already stored (an exporter's retry sends a batch again) is left as it is.
     * Answers the ids of the spans that were new. The rows travel as one JSON parameter read by
     * `jsonb_to_recordset`: a 512-span batch is ~12 ms on PGlite, against ~40 ms as 7,680 bound
     * parameters, and that is how long the batch holds the embedded database (docs/performance.md).
     */
    async insertSpans(rows: NewSpan[]): Promise<{ traceId: string; spanId: string }[]> {
      if (rows.length === 0) return [];
      const records = JSON.stringify(
        rows.map((row) => ({
          workspace_id: row.workspaceId,
          trace_id: row.traceId,
          span_id: row.spanId,
          parent_span_id: row.parentSpanId ?? null,
          name: row.name,
          kind: row.kind,
          start_unix_nano: String(row.startUnixNano),
          end_unix_nano: String(row.endUnixNano),
          status: row.status,
          status_message: row.statusMessage ?? '',
          attributes: row.attributes,
          events: row.events,
          service_name: row.serviceName ?? null,
          scope_name: row.scopeName ?? null,
          generation_id: row.generationId ?? null,
        })),
      );
      const inserted = await database.execute(sql`
        INSERT INTO ${spans} (workspace_id, trace_id, span_id, parent_span_id, name, kind, start_unix_nano,
          end_unix_nano, status, status_message, attributes, events, service_name, scope_name, generation_id)
        SELECT * FROM jsonb_to_recordset(${records}::jsonb) AS row(workspace_id uuid, trace_id text,
          span_id text, parent_span_id text, name text, kind text, start_unix_nano bigint,
          end_unix_nano bigint, status text, status_message text, attributes jsonb, events jsonb,
          service_name text, scope_name text, generation_id uuid)
        ON CONFLICT DO NOTHING
        RETURNING trace_id, span_id`);
      return rowsOf<{ trace_id: string; span_id: string }>(inserted).map((row) => ({
        traceId: row.trace_id,
        spanId: row.span_id,
      }));
    },

    /** Adds each batch's part to its trace: bounds widen, counts and costs add, the root names it. */
    async addToTraces(workspaceId: string, contributions: TraceContribution[]): Promise<void> {
      if (contributions.length === 0) return;
      await database
        .insert(traces)
        .values(
          contributions.map((part) => ({
            workspaceId,
            traceId: part.traceId,
            name: part.root?.name ?? null,
            serviceName: part.root?.serviceName ?? null,
            rootStatus: part.root?.status ?? null,
            startUnixNano: part.startUnixNano,
            endUnixNano: part.endUnixNano,
            spanCount: part.spanCount,
            failed: part.failed,
            session: part.session,
            cost: part.cost,
            inputTokens: part.inputTokens,
            outputTokens: part.outputTokens,
          })),
        )
        .onConflictDoUpdate({
          target: [traces.workspaceId, traces.traceId],
          set: {
            name: sql`coalesce(excluded.name, ${traces.name})`,
            serviceName: sql`coalesce(excluded.service_name, ${traces.serviceName})`,
            rootStatus: sql`coalesce(excluded.root_status, ${traces.rootStatus})`,
            startUnixNano: sql`least(excluded.start_unix_nano, ${traces.startUnixNano})`,
            endUnixNano: sql`greatest(excluded.end_unix_nano, ${traces.endUnixNano})`,
            spanCount: sql`${traces.spanCount} + excluded.span_count`,
            failed: sql`${traces.failed} OR excluded.failed`,
            session: sql`coalesce(${traces.session}, excluded.session)`,
            cost: sql`${traces.cost} + excluded.cost`,
            inputTokens: sql`${traces.inputTokens} + excluded.input_tokens`,
            outputTokens: sql`${traces.outputTokens} + excluded.output_tokens`,
          },
        });
    },

    async listTraces(workspaceId: string, filter: TraceFilter, skip: number, limit: number) {
      const where = traceConditions(workspaceId, filter);
      const [rows, total] = await Promise.all([
        database
          .select()
          .from(traces)
          .where(where)
          .orderBy(desc(traces.startUnixNano), desc(traces.traceId))
          .offset(skip)
          .limit(limit),
        totalOf(database, traces, where),
      ]);
      return { rows, total };
    },

    async findTrace(workspaceId: string, traceId: string): Promise<TraceRow | undefined> {
      const [row] = await database
        .select()
        .from(traces)
        .where(and(eq(traces.workspaceId, workspaceId), eq(traces.traceId, traceId)));
      return row;
    },

    async spansOf(workspaceId: string, traceId: string): Promise<SpanRow[]> {
      return database
        .select()
        .from(spans)
        .where(and(eq(spans.workspaceId, workspaceId), eq(spans.traceId, traceId)))
        .orderBy(asc(spans.startUnixNano), asc(spans.spanId));
    },

    /**
     * The tree of these traces as stored: each span's parent, its generation, and the prompt version
     * it names, to give each model call the version of its nearest marked ancestor.
     */
    async spanLinks(workspaceId: string, traceIds: string[]): Promise<SpanLink[]> {
      if (traceIds.length === 0) return [];
      return database
        .select({
          spanId: spans.spanId,
          parentSpanId: spans.parentSpanId,
          generationId: spans.generationId,
          action: sql<
            string | null
          >`coalesce(${spans.attributes}->>'lectern.action', ${spans.attributes}->>'ai.telemetry.metadata.lectern.action')`,
          version: sql<
            string | null
          >`coalesce(${spans.attributes}->>'lectern.version', ${spans.attributes}->>'ai.telemetry.metadata.lectern.version')`,
        })
        .from(spans)
        .where(and(eq(spans.workspaceId, workspaceId), inArray(spans.traceId, traceIds)));
    },
  };
}

export type TraceRepository = ReturnType<typeof createTraceRepository>;
