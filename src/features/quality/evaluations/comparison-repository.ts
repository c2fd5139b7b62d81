import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { rowsOf } from '../../../platform/database/connection.js';
import { newestFirst } from '../../../platform/database/pages.js';
import { datasetItems } from '../datasets/tables.js';
import type { EvaluationRow } from './repository.js';
import { evaluationResults, evaluations, type PinnedEvaluator } from './tables.js';

/** One item's scores in two evaluations (the comparison reads these for every item). */
export type PairedScores = {
  itemId: string;
  baseScores: Record<string, number | null>;
  candidateScores: Record<string, number | null>;
};

/** What the comparison shows of an item beside its scores: its input and both outputs. */
export type PairedOutputs = {
  itemId: string;
  input: unknown;
  baseOutput: string | null;
  candidateOutput: string | null;
};

/**
 * What compares evaluations: two runs' items side by side, and the run a release gate reads as
 * evidence.
 */
export function createComparisonRepository(database: Database) {
  return {
    /** The scores of the items two evaluations both finished, matched by dataset item, in the dataset's order. */
    async paired(baseId: string, candidateId: string): Promise<PairedScores[]> {
      const rows = rowsOf<{
        item_id: string;
        base_scores: Record<string, number | null>;
        candidate_scores: Record<string, number | null>;
      }>(
        await database.execute(sql`
          SELECT base.item_id, base.scores AS base_scores, candidate.scores AS candidate_scores
          FROM ${evaluationResults} base
          JOIN ${evaluationResults} candidate
            ON candidate.evaluation_id = ${candidateId} AND candidate.item_id = base.item_id
          WHERE base.evaluation_id = ${baseId}
            AND base.status <> 'pending' AND candidate.status <> 'pending'
          ORDER BY base.position`),
      );
      return rows.map((row) => ({
        itemId: row.item_id,
        baseScores: row.base_scores,
        candidateScores: row.candidate_scores,
      }));
    },

    /** The input and both outputs of the named items (the ones a comparison shows). */
    async pairedOutputs(baseId: string, candidateId: string, itemIds: string[]): Promise<PairedOutputs[]> {
      if (itemIds.length === 0) return [];
      const rows = rowsOf<{
        item_id: string;
        input: unknown;
        base_output: string | null;
        candidate_output: string | null;
      }>(
        await database.execute(sql`
          SELECT base.item_id, item.input, base.output AS base_output, candidate.output AS candidate_output
          FROM ${evaluationResults} base
          JOIN ${evaluationResults} candidate
            ON candidate.evaluation_id = ${candidateId} AND candidate.item_id = base.item_id
          JOIN ${datasetItems} item ON item.id = base.item_row_id
          WHERE base.evaluation_id = ${baseId} AND base.item_id IN (${sql.join(
            itemIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`),
      );
      return rows.map((row) => ({
        itemId: row.item_id,
        input: row.input,
        baseOutput: row.base_output,
        candidateOutput: row.candidate_output,
      }));
    },

    /**
     * The newest SUCCESS evaluation of an Action version on a dataset version, among those whose
     * evaluators include all of `evaluatorIds` (release gates read it inside the deploy).
     */
    async latestSuccess(
      actionId: string,
      version: number,
      datasetId: string,
      datasetVersion: number,
      evaluators: Pick<PinnedEvaluator, 'id' | 'type' | 'config'>[],
    ): Promise<EvaluationRow | undefined> {
      const [row] = await database
        .select()
        .from(evaluations)
        .where(
          and(
            eq(evaluations.actionId, actionId),
            eq(evaluations.version, version),
            eq(evaluations.datasetId, datasetId),
            eq(evaluations.datasetVersion, datasetVersion),
            eq(evaluations.status, 'SUCCESS'),
            isNull(evaluations.model),
            // Each evaluator scored as pinned: the same GUID, type and config.
            sql`(SELECT count(*) FROM jsonb_array_elements(${evaluations.evaluators}) pinned
                 WHERE ${sql.join(
                   evaluators.map(
                     ({ id, type, config }) =>
                       sql`(pinned ->> 'id' = ${id} AND pinned ->> 'type' = ${type} AND pinned -> 'config' = ${JSON.stringify(config)}::jsonb)`,
                   ),
                   sql` OR `,
                 )}) = ${evaluators.length}`,
          ),
        )
        .orderBy(...newestFirst(evaluations))
        .limit(1);
      return row;
    },
  };
}

export type ComparisonRepository = ReturnType<typeof createComparisonRepository>;
