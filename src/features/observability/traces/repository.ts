import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../../platform/database/connection.js';
import { totalOf } from '../../../platform/database/pages.js';
import { type NamedStatement, oneStatement } from '../../../platform/database/statements.js';
import { nanosPerDay, partitionName } from './span-partitions.js';
import { spans, traces } from './tables.js';

export type SpanRow = typeof spans.$inferSelect;
export type NewSpan = typeof spans.$inferInsert;
export type TraceRow = typeof traces.$inferSelect;

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

/** A span to store, with what it adds to its trace's totals when it is new. */
export type SpanToStore = NewSpan & {
  /** `session.id` or `gen_ai.conversation.id`, when it names one. */
  session: string | null;
  /** A model call's tokens and price (USD); zero for other spans. */
  inputTokens: number;
  outputTokens: number;
  cost: number;
};

/**
 * Writes spans and what the new ones add to their traces, as the parts of one statement: the rows
 * travel as one JSON parameter read by `jsonb_to_recordset` (a 512-span batch is ~12 ms on PGlite,
 * against ~40 ms as 7,680 bound parameters); a span already stored (an exporter's retry) is left as
 * it is and adds nothing; the new ones are summed per trace in the same statement (bounds widen,
 * counts and costs add, the root names it). One statement, not a transaction: on the embedded
 * database a transaction holds its one thread between its statements while the request thread is
 * busy, and beside CPU burners that is what another tenant's requests waited for
 * (docs/performance.md). `new_spans` answers the spans that were new.
 */
export function spanWrites(workspaceId: string, rows: SpanToStore[]): NamedStatement[] {
  const records = JSON.stringify(
    rows.map((row) => ({
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
      session: row.session,
      input_tokens: row.inputTokens,
      output_tokens: row.outputTokens,
      cost: row.cost,
    })),
  );
  const spanInput = sql`
    SELECT * FROM jsonb_to_recordset(${records}::jsonb) AS row(trace_id text, span_id text,
      parent_span_id text, name text, kind text, start_unix_nano bigint, end_unix_nano bigint,
      status text, status_message text, attributes jsonb, events jsonb, service_name text,
      scope_name text, generation_id uuid, session text, input_tokens bigint, output_tokens bigint,
      cost double precision)`;
  const newSpans = sql`
    INSERT INTO ${spans} (workspace_id, trace_id, span_id, parent_span_id, name, kind, start_unix_nano,
      end_unix_nano, status, status_message, attributes, events, service_name, scope_name, generation_id)
    SELECT ${workspaceId}::uuid, trace_id, span_id, parent_span_id, name, kind, start_unix_nano,
      end_unix_nano, status, status_message, attributes, events, service_name, scope_name, generation_id
    FROM span_input
    ON CONFLICT DO NOTHING
    RETURNING trace_id, span_id`;
  const traceRows = sql`
    INSERT INTO ${traces} AS trace (workspace_id, trace_id, name, service_name, root_status,
      start_unix_nano, end_unix_nano, span_count, failed, session, cost, input_tokens, output_tokens)
    SELECT ${workspaceId}::uuid, trace_id,
      (array_agg(name) FILTER (WHERE parent_span_id IS NULL))[1],
      (array_agg(service_name) FILTER (WHERE parent_span_id IS NULL))[1],
      (array_agg(status) FILTER (WHERE parent_span_id IS NULL))[1],
      min(start_unix_nano), max(end_unix_nano), count(*), bool_or(status = 'ERROR'),
      (array_agg(session) FILTER (WHERE session IS NOT NULL))[1],
      sum(cost), sum(input_tokens), sum(output_tokens)
    FROM span_input JOIN new_spans USING (trace_id, span_id)
    GROUP BY trace_id
    ON CONFLICT (workspace_id, trace_id) DO UPDATE SET
      name = coalesce(excluded.name, trace.name),
      service_name = coalesce(excluded.service_name, trace.service_name),
      root_status = coalesce(excluded.root_status, trace.root_status),
      start_unix_nano = least(excluded.start_unix_nano, trace.start_unix_nano),
      end_unix_nano = greatest(excluded.end_unix_nano, trace.end_unix_nano),
      span_count = trace.span_count + excluded.span_count,
      failed = trace.failed OR excluded.failed,
      session = coalesce(trace.session, excluded.session),
      cost = trace.cost + excluded.cost,
      input_tokens = trace.input_tokens + excluded.input_tokens,
      output_tokens = trace.output_tokens + excluded.output_tokens`;
  return [
    { name: 'span_input', statement: spanInput },
    { name: 'new_spans', statement: newSpans },
    { name: 'trace_rows', statement: traceRows },
  ];
}

export function createTraceRepository(database: Database) {
  return {
    /** Makes the day partitions of `spans` that these days need, if they are missing. */
    async ensurePartitions(days: number[]): Promise<void> {
      for (const day of days) {
        const from = BigInt(day) * nanosPerDay;
        // Its own transaction, or a savepoint inside the caller's: a refused CREATE leaves the caller's
        // transaction usable for the check below.
        await database
          .transaction((transaction) =>
            transaction.execute(
              sql.raw(
                `CREATE TABLE IF NOT EXISTS "${partitionName(day)}" PARTITION OF "spans" FOR VALUES FROM (${from}) TO (${from + nanosPerDay})`,
              ),
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
     * Stores spans, what the new ones add to their traces, and what goes `before` them (the model
     * calls' generations), in one statement. Answers the spans that were new.
     */
    async storeSpans(
      workspaceId: string,
      rows: SpanToStore[],
      before: NamedStatement[] = [],
    ): Promise<{ traceId: string; spanId: string }[]> {
      if (rows.length === 0) return [];
      const stored = await database.execute(
        oneStatement(
          [...before, ...spanWrites(workspaceId, rows)],
          sql`SELECT trace_id, span_id FROM new_spans`,
        ),
      );
      return rowsOf<{ trace_id: string; span_id: string }>(stored).map((row) => ({
        traceId: row.trace_id,
        spanId: row.span_id,
      }));
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
