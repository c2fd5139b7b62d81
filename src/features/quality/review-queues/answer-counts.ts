import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../../platform/database/connection.js';
import { generationScores } from '../../runtime/generations/tables.js';
import { type AnswerSums, type EvaluatorSums, noAnswers } from './agreement.js';
import type { Answer } from './questions.js';
import { reviewAnswerCounts, reviewItems } from './tables.js';

// The answer counts agreement is computed from (docs/review.md#agreement): one row per item, question
// and answer, with the item's number of answers to that question and their sum on each row. Every
// figure is then a sum over rows, filtered by `unit_answers`, in one pass over the queue's rows.

/** An answer as stored in the counts: as JSON (`true`, `3`, `"good"`), and a scale's number. */
function countedAnswer(answer: Answer): { answer: string; value: number | null } {
  return { answer: JSON.stringify(answer), value: typeof answer === 'number' ? answer : null };
}

const number = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

export function createAnswerCountRepository(database: Database) {
  return {
    /**
     * Counts one review's answers (the item is locked by the caller, so no other review of it counts
     * meanwhile). The rows of each answered question get one more answer and its value; the answer's
     * own row one more count, or is added with the question's new totals.
     */
    async count(queueId: string, itemId: string, answers: Record<string, Answer>): Promise<void> {
      const given = Object.entries(answers).map(([key, answer]) => ({ key, ...countedAnswer(answer) }));
      if (given.length === 0) return;
      const values = sql.join(
        given.map((each) => sql`(${each.key}::text, ${each.answer}::text, ${each.value}::double precision)`),
        sql`, `,
      );
      await database.execute(sql`WITH given (question_key, answer, value) AS (VALUES ${values}),
        updated AS (
          UPDATE ${reviewAnswerCounts} AS counted
          SET count = counted.count + CASE WHEN counted.answer = given.answer THEN 1 ELSE 0 END,
            unit_answers = counted.unit_answers + 1,
            unit_total = counted.unit_total + coalesce(given.value, 0)
          FROM given
          WHERE counted.item_id = ${itemId} AND counted.question_key = given.question_key
          RETURNING counted.question_key, counted.answer, counted.unit_answers, counted.unit_total)
        INSERT INTO ${reviewAnswerCounts}
          (queue_id, item_id, question_key, answer, value, count, unit_answers, unit_total)
        SELECT ${queueId}, ${itemId}, given.question_key, given.answer, given.value, 1,
          coalesce(totals.unit_answers, 1), coalesce(totals.unit_total, coalesce(given.value, 0))
        FROM given
        LEFT JOIN (SELECT DISTINCT question_key, unit_answers, unit_total FROM updated) AS totals
          ON totals.question_key = given.question_key
        WHERE NOT EXISTS (SELECT 1 FROM updated
          WHERE updated.question_key = given.question_key AND updated.answer = given.answer)`);
    },

    /**
     * Each question's sums (agreement.ts's `AnswerSums`), in one pass: grouped by question, and by
     * question and answer for each answer's count over the items with exactly `raters` answers.
     */
    async sums(queueId: string, raters: number): Promise<Map<string, AnswerSums>> {
      const pairable = sql`unit_answers >= 2`;
      const full = sql`unit_answers = ${raters}`;
      const rows = rowsOf<Record<string, unknown>>(
        await database.execute(sql`SELECT question_key, answer, GROUPING(answer) AS whole,
          sum(count::double precision / unit_answers) FILTER (WHERE ${pairable}) AS items,
          sum(count * (unit_answers - 1)) FILTER (WHERE ${pairable}) AS pairs,
          sum(count * (count - 1)) FILTER (WHERE ${pairable}) AS agreeing_pairs,
          sum(count) FILTER (WHERE ${pairable}) AS "values",
          sum(count * value) FILTER (WHERE ${pairable}) AS total,
          sum(count * value * value) FILTER (WHERE ${pairable}) AS squares,
          sum(count * value * (value * unit_answers - unit_total) / (unit_answers - 1))
            FILTER (WHERE ${pairable}) AS within_items,
          sum(count::double precision / unit_answers) FILTER (WHERE ${full}) AS full_items,
          sum(count * (count - 1)) FILTER (WHERE ${full}) AS full_agreeing_pairs,
          sum(count) FILTER (WHERE ${full}) AS full_count
        FROM ${reviewAnswerCounts}
        WHERE queue_id = ${queueId}
        GROUP BY GROUPING SETS ((question_key), (question_key, answer))`),
      );
      const found = new Map<string, AnswerSums>();
      const of = (key: string): AnswerSums => {
        if (!found.has(key)) found.set(key, noAnswers(raters));
        return found.get(key)!;
      };
      for (const row of rows) {
        const sums = of(String(row.question_key));
        if (number(row.whole) === 0) {
          if (number(row.full_count) > 0) sums.categoryCounts.push(number(row.full_count));
          continue;
        }
        Object.assign(sums, {
          items: Math.round(number(row.items)),
          pairs: number(row.pairs),
          agreeingPairs: number(row.agreeing_pairs),
          values: number(row.values),
          total: number(row.total),
          squares: number(row.squares),
          withinItems: number(row.within_items),
          fullItems: Math.round(number(row.full_items)),
          fullAgreeingPairs: number(row.full_agreeing_pairs),
        });
      }
      return found;
    },

    /**
     * One question's answers against an evaluator's scores of the items' generations: over the items
     * it scored, how many have a majority answer (more than half) that agrees with the score read as
     * yes (≥ 0.5), and the sums of Pearson's r between the score and the item's mean answer (each row
     * weighted by its share of its item's answers, so each item counts once).
     */
    async evaluatorSums(queueId: string, key: string, evaluatorId: string): Promise<EvaluatorSums> {
      const weight = sql`(counted.count::double precision / counted.unit_answers)`;
      const mean = sql`(counted.unit_total / counted.unit_answers)`;
      const [row] = rowsOf<Record<string, unknown>>(
        await database.execute(sql`SELECT
          sum(${weight}) AS items,
          count(*) FILTER (WHERE 2 * counted.count > counted.unit_answers
            AND (counted.answer = 'true') = (score.score >= 0.5)) AS agreeing,
          sum(${weight} * score.score) AS x, sum(${weight} * ${mean}) AS y,
          sum(${weight} * score.score * score.score) AS xx, sum(${weight} * ${mean} * ${mean}) AS yy,
          sum(${weight} * score.score * ${mean}) AS xy
        FROM ${reviewAnswerCounts} AS counted
        JOIN ${reviewItems} AS item ON item.id = counted.item_id
        JOIN ${generationScores} AS score ON score.generation_id = item.generation_id
          AND score.evaluator_id = ${evaluatorId} AND score.score IS NOT NULL
        WHERE counted.queue_id = ${queueId} AND counted.question_key = ${key}`),
      );
      return {
        items: Math.round(number(row?.items)),
        majorityAgreeing: number(row?.agreeing),
        weight: number(row?.items),
        x: number(row?.x),
        y: number(row?.y),
        xx: number(row?.xx),
        yy: number(row?.yy),
        xy: number(row?.xy),
      };
    },
  };
}

export type AnswerCountRepository = ReturnType<typeof createAnswerCountRepository>;
