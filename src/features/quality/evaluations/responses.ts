import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';
import { evaluationItemStatuses, evaluationStatuses } from '../../../core/wire-values.js';

const nullableScore = z.number().min(0).max(1).nullable();
const interval = z.number().nullable();

export const evaluationStatus = z.enum(evaluationStatuses);

export const evaluationResponse = z
  .strictObject({
    guid,
    name: z.string(),
    status: evaluationStatus,
    error: z.string().nullable().describe('Why a FAILED evaluation could not proceed'),
    action: guid,
    version: z.number().int(),
    environment: z.string().nullable().describe('Where the version was taken from, when one was named'),
    model: z.string().nullable().describe('The model run instead of the version’s (a matrix over models)'),
    dataset: guid,
    dataset_version: z.number().int(),
    evaluators: z.array(guid),
    concurrency: z.number().int(),
    progress: z.strictObject({
      total: z.number().int(),
      done: z.number().int().describe('Items finished, failed ones included'),
      failed: z.number().int(),
    }),
    summary: z.record(
      guid,
      z.strictObject({
        name: z.string(),
        mean: nullableScore,
        ci_low: interval.describe('The 95% interval of the mean: Wilson’s for 0/1 scores, else a bootstrap'),
        ci_high: interval,
        n: z.number().int().describe('Items with a score (null scores are left out)'),
      }),
    ),
    cost: z.number().describe('USD: the items’ runs and their judges'),
    latency_ms: z.strictObject({ p50: z.number().nullable(), p95: z.number().nullable() }),
    created_by_id: z.string(),
    created_at: timestamp,
    started_at: timestamp.nullable(),
    finished_at: timestamp.nullable(),
  })
  .meta({ id: 'Evaluation' });

export const evaluationResultResponse = z
  .strictObject({
    item: guid.describe('The dataset item'),
    input: z.unknown(),
    expected_output: z.string().nullable(),
    status: z.enum(evaluationItemStatuses),
    output: z.string().nullable(),
    data_guid: guid.describe('The item’s generation (source "evaluation")'),
    scores: z.record(guid, nullableScore),
    score_errors: z.record(guid, z.string()).describe('Why a score is null'),
    error: z.string().nullable().describe('Why the item’s run failed'),
    latency_ms: z.number().nullable(),
    cost: z.number().nullable(),
    finished_at: timestamp.nullable(),
  })
  .meta({ id: 'EvaluationResult' });

export const comparisonResponse = z
  .strictObject({
    base: guid,
    candidate: guid,
    evaluators: z.record(
      guid,
      z.strictObject({
        name: z.string(),
        base_mean: nullableScore,
        candidate_mean: nullableScore,
        delta: z.number().nullable().describe('candidate − base over the items both scored'),
        ci_low: interval.describe('The paired bootstrap 95% interval of delta'),
        ci_high: interval,
        improved: z.number().int(),
        regressed: z.number().int(),
        unchanged: z.number().int(),
      }),
    ),
    regressed_items: z.number().int().describe('Items whose score fell on at least one evaluator'),
    items: z.array(
      z.strictObject({
        item: guid,
        input: z.unknown(),
        base_output: z.string().nullable(),
        candidate_output: z.string().nullable(),
        scores: z.record(guid, z.strictObject({ base: nullableScore, candidate: nullableScore })),
      }),
    ),
  })
  .meta({ id: 'EvaluationComparison' });

export type EvaluationResponse = z.output<typeof evaluationResponse>;
export type EvaluationResultResponse = z.output<typeof evaluationResultResponse>;
export type ComparisonResponse = z.output<typeof comparisonResponse>;
