import { type AnyColumn, and, desc, eq, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../../platform/database/connection.js';
import { containingPattern, newestFirst, tablePage } from '../../../platform/database/pages.js';
import { type NamedStatement, oneStatement } from '../../../platform/database/statements.js';
import { actions } from '../../authoring/actions/tables.js';
import { feedback } from '../feedback/tables.js';
import { generationScores, generations, runFailures } from './tables.js';

/** When an Action last ran: a subquery for a statement that lists Actions (on generations' workspace, action, created_at index). */
export function lastGenerationAt(workspaceId: AnyColumn, actionId: AnyColumn): SQL<Date | string | null> {
  return sql`(SELECT max(${generations.createdAt}) FROM ${generations} WHERE ${generations.workspaceId} = ${workspaceId} AND ${generations.actionId} = ${actionId})`;
}

export type GenerationRow = typeof generations.$inferSelect;
export type NewGeneration = typeof generations.$inferInsert;
export type NewRunFailure = typeof runFailures.$inferInsert;

/** Earlier turns replayed into a session's prompt; older ones are left out to bound the prompt. */
const sessionHistoryTurns = 100;

/** Every column an insert sets; the rest (timestamps) take their defaults. */
const insertedColumns = [
  'id',
  'workspaceId',
  'actionId',
  'sessionId',
  'experimentId',
  'traceId',
  'spanId',
  'input',
  'output',
  'fullPromptSent',
  'turnMessages',
  'model',
  'modelProvider',
  'numInputTokens',
  'numOutputTokens',
  'latencyMs',
  'cost',
  'environment',
  'version',
  'extUserId',
  'metadata',
  'source',
  'cached',
  'cacheKey',
] as const satisfies readonly (keyof NewGeneration)[];

function insertValues(row: NewGeneration): Record<(typeof insertedColumns)[number], unknown> {
  return {
    ...row,
    actionId: row.actionId ?? null,
    sessionId: row.sessionId ?? null,
    experimentId: row.experimentId ?? null,
    traceId: row.traceId ?? null,
    spanId: row.spanId ?? null,
    input: row.input ?? null,
    fullPromptSent: row.fullPromptSent ?? [],
    turnMessages: row.turnMessages ?? [],
    model: row.model ?? null,
    modelProvider: row.modelProvider ?? null,
    numInputTokens: row.numInputTokens ?? null,
    numOutputTokens: row.numOutputTokens ?? null,
    latencyMs: row.latencyMs ?? null,
    cost: row.cost ?? null,
    environment: row.environment ?? null,
    version: row.version ?? null,
    extUserId: row.extUserId ?? null,
    metadata: row.metadata ?? {},
    cached: row.cached ?? false,
    cacheKey: row.cacheKey ?? null,
  };
}

/** What the generations list filters on; every field is optional and they combine with AND. */
export type GenerationFilter = {
  actionId?: string;
  sessionId?: string;
  experimentId?: string;
  model?: string;
  modelProvider?: string;
  environment?: string;
  version?: number;
  source?: string;
  /** Created at or after. */
  from?: Date;
  /** Created before. */
  to?: Date;
  /** Text the input or the output contains, case-insensitively. */
  text?: string;
  /** It has a (not deleted) feedback record of this value. */
  feedbackValue?: string;
  /** A monitor scored it below `below` with this evaluator. */
  score?: { evaluatorId: string; below: number };
};

function filterConditions(workspaceId: string, filter: GenerationFilter): SQL[] {
  const conditions: (SQL | undefined)[] = [
    eq(generations.workspaceId, workspaceId),
    filter.actionId === undefined ? undefined : eq(generations.actionId, filter.actionId),
    filter.sessionId === undefined ? undefined : eq(generations.sessionId, filter.sessionId),
    filter.experimentId === undefined ? undefined : eq(generations.experimentId, filter.experimentId),
    filter.model === undefined ? undefined : eq(generations.model, filter.model),
    filter.modelProvider === undefined ? undefined : eq(generations.modelProvider, filter.modelProvider),
    filter.environment === undefined ? undefined : eq(generations.environment, filter.environment),
    filter.version === undefined ? undefined : eq(generations.version, filter.version),
    filter.source === undefined ? undefined : eq(generations.source, filter.source),
    filter.from === undefined ? undefined : gte(generations.createdAt, filter.from),
    filter.to === undefined ? undefined : lt(generations.createdAt, filter.to),
    filter.feedbackValue === undefined
      ? undefined
      : sql`EXISTS (SELECT 1 FROM ${feedback} WHERE ${feedback.generationId} = ${generations.id}
          AND ${feedback.value} = ${filter.feedbackValue} AND NOT ${feedback.deleted})`,
    filter.score === undefined
      ? undefined
      : sql`EXISTS (SELECT 1 FROM ${generationScores} WHERE ${generationScores.generationId} = ${generations.id}
          AND ${generationScores.evaluatorId} = ${filter.score.evaluatorId} AND ${generationScores.score} < ${filter.score.below})`,
    filter.text === undefined
      ? undefined
      : or(
          sql`${generations.output} ILIKE ${containingPattern(filter.text)}`,
          sql`${generations.input}::text ILIKE ${containingPattern(filter.text)}`,
        ),
  ];
  return conditions.filter((condition) => condition !== undefined);
}

/**
 * The INSERT of several generations. The rows travel as one JSON parameter read by
 * `jsonb_to_recordset`, as spans do: a gateway batch of 200 records costs the embedded database
 * ~0.1 ms a record less than as 4,800 bound parameters (docs/performance.md). `traced`: rows dated by
 * their spans, and one whose span is stored as a generation already is left out.
 */
function generationsInsert(rows: NewGeneration[], { traced = false } = {}): SQL {
  // A key left out (undefined) reads as NULL; keys that are not columns below are ignored.
  const records = JSON.stringify(rows.map((row) => ({ ...insertValues(row), createdAt: row.createdAt })));
  const dated = traced ? sql`, created_at` : sql``;
  const datedValue = traced ? sql`, "createdAt"` : sql``;
  const skipped = traced
    ? sql` ON CONFLICT (workspace_id, trace_id, span_id) WHERE span_id IS NOT NULL DO NOTHING`
    : sql``;
  return sql`
    INSERT INTO ${generations} (id, workspace_id, action_id, session_id, experiment_id, trace_id, span_id,
      input, output, full_prompt_sent, turn_messages, model, model_provider, num_input_tokens,
      num_output_tokens, latency_ms, cost, environment, version, ext_user_id, metadata, source, cached,
      cache_key${dated})
    SELECT id, "workspaceId", "actionId", "sessionId", "experimentId", "traceId", "spanId", input, output,
      "fullPromptSent", "turnMessages", model, "modelProvider", "numInputTokens", "numOutputTokens",
      "latencyMs", cost, environment, version, "extUserId", metadata, source, cached, "cacheKey"${datedValue}
    FROM jsonb_to_recordset(${records}::jsonb) AS row(id uuid, "workspaceId" uuid, "actionId" uuid,
      "sessionId" uuid, "experimentId" uuid, "traceId" text, "spanId" text, input jsonb, output text,
      "fullPromptSent" jsonb, "turnMessages" jsonb, model text, "modelProvider" text,
      "numInputTokens" integer, "numOutputTokens" integer, "latencyMs" integer, cost jsonb,
      environment text, version integer, "extUserId" text, metadata jsonb, source text, cached boolean,
      "cacheKey" text, "createdAt" timestamptz)${skipped}`;
}

export function createGenerationRepository(database: Database) {
  // Every run inserts one row: prepared once, the statement skips drizzle's per-call query building.
  const placeholders = Object.fromEntries(insertedColumns.map((column) => [column, sql.placeholder(column)]));
  const insertGeneration = database
    .insert(generations)
    .values(placeholders as unknown as NewGeneration)
    .onConflictDoNothing({ target: generations.id })
    .prepare('insert_generation');

  async function page(where: ReturnType<typeof and>, skip: number, limit: number) {
    return tablePage(database, generations, where, newestFirst(generations), skip, limit);
  }

  return {
    /** Idempotent by id: a retried job that already stored its generation stores nothing more. */
    async insert(row: NewGeneration): Promise<void> {
      await insertGeneration.execute(insertValues(row));
    },

    async insertFailure(row: NewRunFailure): Promise<void> {
      await database.insert(runFailures).values(row);
    },

    /**
     * Several rows in one statement: all are stored or none, with what goes `alongside` (their
     * traces, platform/database/statements.ts).
     */
    async insertMany(rows: NewGeneration[], alongside: NamedStatement[] = []): Promise<void> {
      if (rows.length === 0) return;
      const insert = generationsInsert(rows);
      await database.execute(
        alongside.length === 0
          ? insert
          : oneStatement([{ name: 'generation_rows', statement: insert }, ...alongside], sql`SELECT 1`),
      );
    },

    /**
     * The insert of model calls traced over OpenTelemetry, dated by their spans' start, for the
     * traces feature to send with the spans: a span already stored as a generation (an exporter sent
     * its batch again) is left as it is.
     */
    tracedInsert(rows: NewGeneration[]): NamedStatement {
      return { name: 'generation_rows', statement: generationsInsert(rows, { traced: true }) };
    },

    /**
     * Gives traced generations without an Action the prompt version a span above them names; one
     * that has an Action keeps it. Answers when the changed ones were made.
     */
    async attachTraced(
      workspaceId: string,
      attachments: { id: string; actionId: string; version: number | null }[],
    ): Promise<Date[]> {
      if (attachments.length === 0) return [];
      // One statement however many calls a batch settles: it runs in the batch's transaction.
      const rows = await database.execute(sql`
        UPDATE ${generations} SET action_id = attached."actionId", version = attached.version
        FROM jsonb_to_recordset(${JSON.stringify(attachments)}::jsonb)
          AS attached(id uuid, "actionId" uuid, version integer)
        WHERE ${generations.workspaceId} = ${workspaceId} AND ${generations.id} = attached.id
          AND ${generations.actionId} IS NULL
        RETURNING ${generations.createdAt} AS created_at`);
      return rowsOf<{ created_at: string | Date }>(rows).map((row) => new Date(row.created_at));
    },

    /** A generation's monitor scores by evaluator GUID. */
    async scores(id: string): Promise<Record<string, number | null>> {
      const rows = await database
        .select({ evaluatorId: generationScores.evaluatorId, score: generationScores.score })
        .from(generationScores)
        .where(eq(generationScores.generationId, id));
      return Object.fromEntries(rows.map((row) => [row.evaluatorId, row.score]));
    },

    async find(workspaceId: string, id: string): Promise<GenerationRow | undefined> {
      const [row] = await database
        .select()
        .from(generations)
        .where(and(eq(generations.workspaceId, workspaceId), eq(generations.id, id)));
      return row;
    },

    /** The workspace's generations among `ids` (another workspace's are not found), in one statement. */
    async findMany(workspaceId: string, ids: string[]): Promise<GenerationRow[]> {
      if (ids.length === 0) return [];
      return database
        .select()
        .from(generations)
        .where(and(eq(generations.workspaceId, workspaceId), inArray(generations.id, ids)));
    },

    /** The input and output of each generation found, by id (a dataset's items made from generations). */
    async inputsAndOutputs(
      workspaceId: string,
      ids: string[],
    ): Promise<Map<string, { input: unknown; output: string }>> {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return new Map();
      const found = await database
        .select({ id: generations.id, input: generations.input, output: generations.output })
        .from(generations)
        .where(and(eq(generations.workspaceId, workspaceId), inArray(generations.id, unique)));
      return new Map(found.map((row) => [row.id, { input: row.input, output: row.output }]));
    },

    /** Every generation of the workspace that matches `filter`, newest first. */
    search(workspaceId: string, filter: GenerationFilter, skip: number, limit: number) {
      return page(and(...filterConditions(workspaceId, filter)), skip, limit);
    },

    /**
     * Every matching generation, newest first, read in batches that continue after the last row
     * (keyset paging): an export of a million rows costs the same per batch as the first one.
     */
    async *scan(
      workspaceId: string,
      filter: GenerationFilter,
      batchSize = 500,
    ): AsyncGenerator<GenerationRow> {
      const conditions = filterConditions(workspaceId, filter);
      // The last row's own timestamp is read back in SQL: a JavaScript Date would drop its microseconds.
      let after: string | undefined;
      for (;;) {
        const batch = await database
          .select()
          .from(generations)
          .where(
            and(
              ...conditions,
              after === undefined
                ? undefined
                : sql`(${generations.createdAt}, ${generations.id}) < (SELECT ${generations.createdAt}, ${generations.id} FROM ${generations} WHERE ${generations.id} = ${after})`,
            ),
          )
          .orderBy(...newestFirst(generations))
          .limit(batchSize);
        yield* batch;
        if (batch.length < batchSize) return;
        after = batch.at(-1)!.id;
      }
    },

    listByAction(workspaceId: string, actionId: string, skip: number, limit: number) {
      return page(
        and(eq(generations.workspaceId, workspaceId), eq(generations.actionId, actionId)),
        skip,
        limit,
      );
    },

    /** Generations of every Action of an App (deleted Actions included: their records stay). */
    listByApp(workspaceId: string, appId: string, skip: number, limit: number) {
      const actionsOfApp = database
        .select({ id: actions.id })
        .from(actions)
        .where(and(eq(actions.workspaceId, workspaceId), eq(actions.appId, appId)));
      return page(
        and(eq(generations.workspaceId, workspaceId), inArray(generations.actionId, actionsOfApp)),
        skip,
        limit,
      );
    },

    async update(
      workspaceId: string,
      id: string,
      changes: Partial<Omit<NewGeneration, 'id' | 'workspaceId' | 'actionId'>>,
    ): Promise<GenerationRow | undefined> {
      const [row] = await database
        .update(generations)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(eq(generations.workspaceId, workspaceId), eq(generations.id, id)))
        .returning();
      return row;
    },

    /** Removes a generation; its feedback goes with it (ON DELETE CASCADE). */
    async remove(workspaceId: string, id: string): Promise<GenerationRow | undefined> {
      const [row] = await database
        .delete(generations)
        .where(and(eq(generations.workspaceId, workspaceId), eq(generations.id, id)))
        .returning();
      return row;
    },

    listBySession(workspaceId: string, sessionId: string, skip: number, limit: number) {
      return page(
        and(eq(generations.workspaceId, workspaceId), eq(generations.sessionId, sessionId)),
        skip,
        limit,
      );
    },

    /** The session's latest turns, oldest first. */
    async sessionTurns(workspaceId: string, sessionId: string) {
      const latest = await database
        .select({
          turn: generations.turnMessages,
          output: generations.output,
          createdAt: generations.createdAt,
        })
        .from(generations)
        .where(and(eq(generations.workspaceId, workspaceId), eq(generations.sessionId, sessionId)))
        .orderBy(...newestFirst(generations))
        .limit(sessionHistoryTurns);
      return latest.reverse();
    },

    /** The newest generation made for this cache key (docs/architecture.md#layers). */
    async findByCacheKey(workspaceId: string, cacheKey: string): Promise<GenerationRow | undefined> {
      const [row] = await database
        .select()
        .from(generations)
        .where(
          and(
            eq(generations.workspaceId, workspaceId),
            eq(generations.cacheKey, cacheKey),
            eq(generations.cached, false),
          ),
        )
        .orderBy(desc(generations.createdAt))
        .limit(1);
      return row;
    },
  };
}

export type GenerationRepository = ReturnType<typeof createGenerationRepository>;
