import { z } from 'zod';
import { guid, largestStoredInteger, versionNumber } from '../../../core/guid.js';
import { paginationQuery } from '../../../core/pagination.js';
import { evaluationItemStatuses } from '../../../core/wire-values.js';
import { environment } from '../../authoring/actions/index.js';

/** How many items of one evaluation run at once, at most. */
export const maximumConcurrency = 32;

const evaluatorList = z
  .array(guid)
  .min(1)
  .max(20)
  .refine((ids) => new Set(ids).size === ids.length, 'names an evaluator twice');

/** What every evaluation names: the Action, the dataset (version), the evaluators and the concurrency. */
const evaluationFields = {
  action: z.string().min(1).max(200).describe('The Action’s GUID or slug'),
  dataset: guid,
  dataset_version: z.number().int().min(1).max(largestStoredInteger).optional(),
  evaluators: evaluatorList,
  concurrency: z.number().int().min(1).max(maximumConcurrency).default(4),
};

/** `POST /v1/evaluations`: an Action version (by number, by environment, or the default's) over a dataset version. */
export const startEvaluationBody = z
  .strictObject({
    ...evaluationFields,
    version: versionNumber.optional(),
    environment: environment.optional(),
    name: z.string().trim().min(1).max(200).optional(),
  })
  .refine((body) => body.version === undefined || body.environment === undefined, {
    message: 'give a version or an environment, not both',
    path: ['environment'],
  });

/**
 * `POST /v1/evaluations/matrix`: the same dataset and evaluators over several versions (or models)
 * of one Action, one evaluation each.
 */
export const startMatrixBody = z.strictObject({
  ...evaluationFields,
  versions: z
    .array(versionNumber)
    .min(1)
    .max(10)
    .refine((versions) => new Set(versions).size === versions.length, 'names a version twice')
    .optional(),
  models: z
    .array(z.string().regex(/^[^/\s]+\/\S+$/, 'must be provider/model'))
    .min(1)
    .max(10)
    .optional(),
});

export const resultsQuery = paginationQuery.extend({
  status: z.enum(evaluationItemStatuses).optional(),
  evaluator: guid.optional().describe('With score_below: the evaluator whose score is compared'),
  score_below: z.coerce.number().min(0).max(1).optional().describe('Items this evaluator scored below it'),
});

export const compareQuery = z.object({
  base: guid,
  candidate: guid,
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(1_000)
    .describe('Items in the answer, regressions first'),
});

export type StartEvaluation = z.infer<typeof startEvaluationBody>;
export type StartMatrix = z.infer<typeof startMatrixBody>;
export type ResultsQuery = z.infer<typeof resultsQuery>;
