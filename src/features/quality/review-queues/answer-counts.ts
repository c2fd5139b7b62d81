import { sql } from 'drizzle-orm';
import { type Database, rowsOf, uuidArray } from '../../../platform/database/connection.js';
import { generationScores } from '../../runtime/generations/tables.js';
import { type AnswerSums, type EvaluatorSums, noAnswers } from './agreement.js';
import type { Answer } from './questions.js';
import { reviewAgreementSums, reviewAnswerCounts, reviewItems, reviewQueues, reviews } from './tables.js';

// The answer counts agreement is computed from (docs/review.md#agreement): one row per item, question
// and answer, with the item's number of answers to that question and their sum on each row. Each
// review also adds the change it made to those rows into the queue's sums (review_agreement_sums),
// by question, answer and number of answers, so the report reads a few rows whatever the queue's size.

/** An answer as stored in the counts: as JSON (`true`, `3`, `"good"`), and a scale's number. */
function countedAnswer(answer: Answer): { answer: string; value: number | null } {
  return { answer: JSON.stringify(answer), value: typeof answer === 'number' ? answer : null };
}

const number = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

/** A change added to a row of sums already there (`summed`, the change `excluded`). */
const addedToSums = sql`count = summed.count + excluded.count,
  agreeing_pairs = summed.agreeing_pairs + excluded.agreeing_pairs,
  total = summed.total + excluded.total, squares = summed.squares + excluded.squares,
  value_by_totals = summed.value_by_totals + excluded.value_by_totals`;

/** Sums rows one queue's concurrent reviews spread over (the shard is the item's). */
const shards = 8;

/** One row of a queue's sums: the counts' rows of one answer among items with `answers` answers. */
type SumsRow = {
  answers: number;
  count: number;
  agreeing_pairs: number;
  total: number;
  squares: number;
  value_by_totals: number;
};

/**
 * A question's `AnswerSums` from its rows of sums. Over the rows of items with m answers, Σ n_c is m
 * times their number of items (so each figure stays a whole number), and Σ_items (m·Σv² − (Σv)²) is
 * m·Σ n_c·v² − Σ n_c·v·(the item's total).
 */
function answerSumsOf(rows: SumsRow[], raters: number): AnswerSums {
  const sums = noAnswers(raters);
  for (const row of rows) {
    const m = row.answers;
    if (m < 2 || row.count === 0) continue;
    sums.items += row.count / m;
    sums.pairs += row.count * (m - 1);
    sums.agreeingPairs += row.agreeing_pairs;
    sums.values += row.count;
    sums.total += row.total;
    sums.squares += row.squares;
    sums.withinItems += (m * row.squares - row.value_by_totals) / (m - 1);
    if (m !== raters) continue;
    sums.fullItems += row.count / m;
    sums.fullAgreeingPairs += row.agreeing_pairs;
    sums.categoryCounts.push(row.count);
  }
  sums.items = Math.round(sums.items);
  sums.fullItems = Math.round(sums.fullItems);
  return sums;
}

export function createAnswerCountRepository(database: Database) {
  return {
    /**
     * Counts one review's answers (the item is locked by the caller, so no other review of it counts
     * meanwhile), in one statement: the item's rows of each answered question before the review, the
     * rows after it (one more answer, its value in the totals, its answer's count one more or a new
     * row), the rows written, and their difference added to the queue's sums in the sums' key order,
     * so two reviews waiting for each other's sums rows cannot deadlock.
     */
    async count(queueId: string, itemId: string, answers: Record<string, Answer>): Promise<void> {
      const given = Object.entries(answers).map(([key, answer]) => ({ key, ...countedAnswer(answer) }));
      if (given.length === 0) return;
      const values = sql.join(
        given.map((each) => sql`(${each.key}::text, ${each.answer}::text, ${each.value}::double precision)`),
        sql`, `,
      );
      const shard = Number.parseInt(itemId.slice(-2), 16) % shards;
      const value = sql`coalesce(change.value, 0)`;
      await database.execute(sql`WITH given (question_key, answer, value) AS (VALUES ${values}),
        before AS (
          SELECT counted.question_key, counted.answer, counted.value, counted.count,
            counted.unit_answers, counted.unit_total
          FROM ${reviewAnswerCounts} AS counted
          JOIN given ON given.question_key = counted.question_key
          WHERE counted.item_id = ${itemId}),
        totals AS (
          SELECT given.question_key, coalesce(max(before.unit_answers), 0) + 1 AS unit_answers,
            coalesce(max(before.unit_total), 0) + coalesce(given.value, 0) AS unit_total
          FROM given LEFT JOIN before ON before.question_key = given.question_key
          GROUP BY given.question_key, given.value),
        after AS (
          SELECT before.question_key, before.answer, before.value,
            before.count + CASE WHEN before.answer = given.answer THEN 1 ELSE 0 END AS count
          FROM before JOIN given ON given.question_key = before.question_key
          UNION ALL
          SELECT given.question_key, given.answer, given.value, 1 FROM given
          WHERE NOT EXISTS (SELECT 1 FROM before
            WHERE before.question_key = given.question_key AND before.answer = given.answer)),
        change (question_key, answer, answers, count, value, unit_total, sign) AS (
          SELECT after.question_key, after.answer, totals.unit_answers, after.count, after.value,
            totals.unit_total, 1
          FROM after JOIN totals ON totals.question_key = after.question_key
          UNION ALL
          SELECT question_key, answer, unit_answers, count, value, unit_total, -1 FROM before),
        written AS (
          INSERT INTO ${reviewAnswerCounts}
            (queue_id, item_id, question_key, answer, value, count, unit_answers, unit_total)
          SELECT ${queueId}::uuid, ${itemId}::uuid, question_key, answer, value, count, answers, unit_total
          FROM change WHERE sign = 1
          ON CONFLICT (item_id, question_key, answer) DO UPDATE SET count = excluded.count,
            unit_answers = excluded.unit_answers, unit_total = excluded.unit_total)
        INSERT INTO ${reviewAgreementSums} AS summed (queue_id, question_key, answer, answers, shard,
          count, agreeing_pairs, total, squares, value_by_totals)
        SELECT ${queueId}::uuid, change.question_key, change.answer, change.answers, ${shard}::integer,
          sum(sign * change.count), sum(sign * change.count * (change.count - 1)),
          sum(sign * change.count * ${value}), sum(sign * change.count * ${value} * ${value}),
          sum(sign * change.count * ${value} * change.unit_total)
        FROM change
        GROUP BY change.question_key, change.answer, change.answers
        ORDER BY change.question_key, change.answer, change.answers
        ON CONFLICT (queue_id, question_key, answer, answers, shard) DO UPDATE SET ${addedToSums}`);
    },

    /**
     * Counts the reviews of the queue's next `limit` items after `after` (their position) again from
     * their answers, for the questions that are not `text` now; answers the last item's position, or
     * undefined when none is left. The items are locked (a review of one waits), their counts
     * deleted (the delete trigger takes them out of the sums) and made again, and added to the sums:
     * so the sums are whole after every chunk, and each chunk is a short transaction.
     */
    async recountItems(queueId: string, after: number, limit: number): Promise<number | undefined> {
      const locked = rowsOf<{ id: string; position: number | string }>(
        await database.execute(sql`SELECT id, position FROM ${reviewItems}
          WHERE queue_id = ${queueId} AND position > ${after}
          ORDER BY position LIMIT ${limit} FOR UPDATE`),
      );
      if (locked.length === 0) return undefined;
      const items = uuidArray(locked.map((row) => row.id));
      await database.execute(sql`DELETE FROM ${reviewAnswerCounts} WHERE item_id = ANY (${items})`);
      // Each item's totals per question by a window over its answers' counts, in the same statement.
      await database.execute(sql`INSERT INTO ${reviewAnswerCounts}
          (queue_id, item_id, question_key, answer, value, count, unit_answers, unit_total)
        SELECT queue_id, item_id, question_key, answer, value, count,
          sum(count) OVER unit, coalesce(sum(count * value) OVER unit, 0)
        FROM (SELECT review.queue_id, review.item_id, given.key AS question_key,
            given.value::text AS answer,
            CASE WHEN jsonb_typeof(given.value) = 'number' THEN given.value::text::double precision END AS value,
            count(*)::integer AS count
          FROM ${reviews} AS review
          CROSS JOIN LATERAL jsonb_each(review.answers) AS given
          JOIN ${reviewQueues} AS queue ON queue.id = review.queue_id
          WHERE review.item_id = ANY (${items})
            AND EXISTS (SELECT 1 FROM jsonb_array_elements(queue.questions) AS question
              WHERE question->>'key' = given.key AND question->>'type' <> 'text')
          GROUP BY 1, 2, 3, 4, 5) AS counted
        WINDOW unit AS (PARTITION BY item_id, question_key)`);
      await database.execute(sql`INSERT INTO ${reviewAgreementSums} AS summed (queue_id, question_key,
          answer, answers, shard, count, agreeing_pairs, total, squares, value_by_totals)
        SELECT queue_id, question_key, answer, unit_answers, 0, sum(count), sum(count * (count - 1)),
          sum(count * coalesce(value, 0)), sum(count * coalesce(value, 0) * coalesce(value, 0)),
          sum(count * coalesce(value, 0) * unit_total)
        FROM ${reviewAnswerCounts} WHERE item_id = ANY (${items})
        GROUP BY 1, 2, 3, 4
        ORDER BY 1, 2, 3, 4
        ON CONFLICT (queue_id, question_key, answer, answers, shard) DO UPDATE SET ${addedToSums}`);
      return Number(locked.at(-1)!.position);
    },

    /** Each question's sums (agreement.ts's `AnswerSums`), from the queue's rows of sums. */
    async sums(queueId: string, raters: number): Promise<Map<string, AnswerSums>> {
      const rows = rowsOf<Record<string, unknown>>(
        await database.execute(sql`SELECT question_key, answers, sum(count) AS count,
          sum(agreeing_pairs) AS agreeing_pairs, sum(total) AS total, sum(squares) AS squares,
          sum(value_by_totals) AS value_by_totals
        FROM ${reviewAgreementSums}
        WHERE queue_id = ${queueId}
        GROUP BY question_key, answer, answers`),
      );
      const byQuestion = new Map<string, SumsRow[]>();
      for (const row of rows) {
        const key = String(row.question_key);
        if (!byQuestion.has(key)) byQuestion.set(key, []);
        byQuestion.get(key)!.push({
          answers: number(row.answers),
          count: number(row.count),
          agreeing_pairs: number(row.agreeing_pairs),
          total: number(row.total),
          squares: number(row.squares),
          value_by_totals: number(row.value_by_totals),
        });
      }
      return new Map([...byQuestion].map(([key, questionRows]) => [key, answerSumsOf(questionRows, raters)]));
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
