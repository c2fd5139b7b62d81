import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import type { SpanEvent } from '../../../core/json-columns.js';
import type { SpanKindName, SpanStatusName } from '../../../core/wire-values.js';
import { workspaces } from '../../identity/workspaces/tables.js';

/**
 * A trace's totals, kept as its spans arrive (any order, several requests): the list reads these
 * rows, never the spans. `name`, `service_name` and `root_status` come with the root span.
 */
export const traces = pgTable(
  'traces',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    traceId: text('trace_id').notNull(),
    name: text('name'),
    serviceName: text('service_name'),
    rootStatus: text('root_status').$type<SpanStatusName>(),
    startUnixNano: bigint('start_unix_nano', { mode: 'bigint' }).notNull(),
    endUnixNano: bigint('end_unix_nano', { mode: 'bigint' }).notNull(),
    spanCount: integer('span_count').notNull(),
    /** Whether any span failed: the trace's status is then ERROR, whatever its root says. */
    failed: boolean('failed').notNull().default(false),
    session: text('session'),
    /** USD, the sum of its generations' costs. */
    cost: doublePrecision('cost').notNull().default(0),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.workspaceId, table.traceId] }),
    // The list: newest first; its filters narrow what this index walks.
    index('traces_workspace_start_index').on(table.workspaceId, table.startUnixNano),
    index('traces_session_index')
      .on(table.workspaceId, table.session, table.startUnixNano)
      .where(sql`${table.session} is not null`),
  ],
);

/**
 * Spans, partitioned by the day they start (docs/operations.md#traces): the migration declares
 * `PARTITION BY RANGE (start_unix_nano)`, and the traces feature makes each day's table as spans
 * need it and drops it once past the retention. The key holds the start because a partitioned
 * table's unique keys must hold its partition key; a span id is unique within its trace anyway.
 */
export const spans = pgTable(
  'spans',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    traceId: text('trace_id').notNull(),
    spanId: text('span_id').notNull(),
    parentSpanId: text('parent_span_id'),
    name: text('name').notNull(),
    kind: text('kind').$type<SpanKindName>().notNull(),
    startUnixNano: bigint('start_unix_nano', { mode: 'bigint' }).notNull(),
    endUnixNano: bigint('end_unix_nano', { mode: 'bigint' }).notNull(),
    status: text('status').$type<SpanStatusName>().notNull(),
    statusMessage: text('status_message').notNull().default(''),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull(),
    events: jsonb('events').$type<SpanEvent[]>().notNull(),
    serviceName: text('service_name'),
    scopeName: text('scope_name'),
    /** The generation a model-call span is (no foreign key: a partitioned table's rows outlive it). */
    generationId: uuid('generation_id'),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.traceId, table.spanId, table.startUnixNano] })],
);
