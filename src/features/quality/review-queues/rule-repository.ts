import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../../platform/database/connection.js';
import { feedback } from '../../runtime/feedback/tables.js';
import type { RunSource } from '../../runtime/generations/index.js';
import { generationScores, generations } from '../../runtime/generations/tables.js';
import { unreviewedSources } from './schemas.js';
import { reviewQueues, reviewRules } from './tables.js';

export type RuleRow = typeof reviewRules.$inferSelect;

/** A generation a rule's sweep found, and where the rule's mark moves past it. */
export type RuleMatch = { generationId: string; markAt: string; markId: string };

/** The sources of the run engine's generations (the generations feature's RunSource). */
const runSources: RunSource[] = ['sync', 'stream', 'async', 'experiment', 'workflow', 'skill', 'mcp'];

/** Sorts before every row of the same instant: a mark that names no row yet. */
const noRow = '00000000-0000-0000-0000-000000000000';

/** What every rule asks of a generation, besides its trigger (docs/review.md#rules). */
function generationFilters(rule: RuleRow): SQL {
  const conditions: SQL[] = [
    sql`${generations.workspaceId} = ${rule.workspaceId}`,
    sql`${generations.source} NOT IN (${sql.join(
      unreviewedSources.map((source) => sql`${source}`),
      sql`, `,
    )})`,
  ];
  // A draft's run (the playground: an Action's unsaved version) is never production traffic. A
  // generation an application logged without its version (`POST /v1/data`, the gateway) is.
  conditions.push(sql`NOT (${generations.actionId} IS NOT NULL AND ${generations.version} IS NULL
    AND ${generations.source} IN (${sql.join(
      runSources.map((source) => sql`${source}`),
      sql`, `,
    )}))`);
  if (rule.actionId) conditions.push(sql`${generations.actionId} = ${rule.actionId}`);
  if (rule.environment) conditions.push(sql`${generations.environment} = ${rule.environment}`);
  if (rule.sources)
    conditions.push(
      sql`${generations.source} IN (${sql.join(
        rule.sources.map((source) => sql`${source}`),
        sql`, `,
      )})`,
    );
  // A failed call is stored with its error in the metadata (gateway and OpenTelemetry calls).
  if (rule.condition.error) conditions.push(sql`(${generations.metadata}->>'error') IS NOT NULL`);
  const wanted = rule.condition.feedback;
  if (wanted && rule.condition.score_below)
    conditions.push(sql`EXISTS (SELECT 1 FROM ${feedback} WHERE ${feedback.generationId} = ${generations.id}
      AND ${feedback.type} = ${wanted.type} AND ${feedback.value} = ${wanted.value} AND NOT ${feedback.deleted})`);
  return sql.join(conditions, sql` AND `);
}

const mark = (rule: RuleRow) =>
  sql`(SELECT ${reviewRules.scannedUntil}, coalesce(${reviewRules.scannedId}, ${noRow}::uuid) FROM ${reviewRules} WHERE ${reviewRules.id} = ${rule.id})`;

export function createRuleRepository(database: Database) {
  return {
    async insert(row: typeof reviewRules.$inferInsert): Promise<RuleRow> {
      const [rule] = await database.insert(reviewRules).values(row).returning();
      return rule!;
    },

    async list(queueId: string): Promise<RuleRow[]> {
      return database
        .select()
        .from(reviewRules)
        .where(and(eq(reviewRules.queueId, queueId), isNull(reviewRules.deletedAt)))
        .orderBy(asc(reviewRules.createdAt));
    },

    /** The rule while it and its queue live. */
    async findLive(workspaceId: string, id: string): Promise<RuleRow | undefined> {
      const [row] = await database
        .select({ rule: reviewRules })
        .from(reviewRules)
        .innerJoin(reviewQueues, eq(reviewQueues.id, reviewRules.queueId))
        .where(
          and(
            eq(reviewRules.workspaceId, workspaceId),
            eq(reviewRules.id, id),
            isNull(reviewRules.deletedAt),
            isNull(reviewQueues.deletedAt),
          ),
        );
      return row?.rule;
    },

    async remove(queueId: string, id: string): Promise<boolean> {
      const removed = await database
        .update(reviewRules)
        .set({ deletedAt: new Date() })
        .where(and(eq(reviewRules.queueId, queueId), eq(reviewRules.id, id), isNull(reviewRules.deletedAt)))
        .returning({ id: reviewRules.id });
      return removed.length > 0;
    },

    /**
     * The rule's next matches after its mark, in the order they arrived: new generations, or the
     * feedback or scores its `when` waits for. None younger than `settleMs`, so a row whose
     * transaction commits late is not passed over.
     */
    async nextMatches(rule: RuleRow, settleMs: number, limit: number): Promise<RuleMatch[]> {
      const settled = (column: SQL) => sql`${column} < now() - make_interval(secs => ${settleMs / 1000})`;
      const filters = generationFilters(rule);
      const { feedback: wanted, score_below: below } = rule.condition;
      const query = below
        ? sql`SELECT ${generations.id} AS generation_id, ${generationScores.createdAt}::text AS mark_at,
              ${generationScores.generationId} AS mark_id
            FROM ${generationScores} JOIN ${generations} ON ${generations.id} = ${generationScores.generationId}
            WHERE ${generationScores.workspaceId} = ${rule.workspaceId}
              AND ${generationScores.evaluatorId} = ${below.evaluator} AND ${generationScores.score} < ${below.value}
              AND (${generationScores.createdAt}, ${generationScores.generationId}) > ${mark(rule)}
              AND ${settled(sql`${generationScores.createdAt}`)} AND ${filters}
            ORDER BY ${generationScores.createdAt}, ${generationScores.generationId} LIMIT ${limit}`
        : wanted
          ? sql`SELECT ${generations.id} AS generation_id, ${feedback.createdAt}::text AS mark_at, ${feedback.id} AS mark_id
            FROM ${feedback} JOIN ${generations} ON ${generations.id} = ${feedback.generationId}
            WHERE ${feedback.workspaceId} = ${rule.workspaceId} AND ${feedback.type} = ${wanted.type}
              AND ${feedback.value} = ${wanted.value} AND NOT ${feedback.deleted}
              AND (${feedback.createdAt}, ${feedback.id}) > ${mark(rule)}
              AND ${settled(sql`${feedback.createdAt}`)} AND ${filters}
            ORDER BY ${feedback.createdAt}, ${feedback.id} LIMIT ${limit}`
          : sql`SELECT ${generations.id} AS generation_id, ${generations.createdAt}::text AS mark_at, ${generations.id} AS mark_id
            FROM ${generations}
            WHERE (${generations.createdAt}, ${generations.id}) > ${mark(rule)}
              AND ${settled(sql`${generations.createdAt}`)} AND ${filters}
            ORDER BY ${generations.createdAt}, ${generations.id} LIMIT ${limit}`;
      const rows = rowsOf<{ generation_id: string; mark_at: string; mark_id: string }>(
        await database.execute(query),
      );
      return rows.map((row) => ({
        generationId: row.generation_id,
        markAt: row.mark_at,
        markId: row.mark_id,
      }));
    },

    /** Moves the mark past a sweep's last match, once its items are stored. */
    async moveMark(ruleId: string, last: RuleMatch): Promise<void> {
      await database
        .update(reviewRules)
        .set({ scannedUntil: sql`${last.markAt}::timestamptz`, scannedId: last.markId })
        .where(eq(reviewRules.id, ruleId));
    },
  };
}

export type RuleRepository = ReturnType<typeof createRuleRepository>;
