import { z } from 'zod';
import { evaluatorTypeNames } from './evaluator-types.js';

const evaluatorName = z.string().trim().min(1).max(200);
const config = z
  .record(z.string(), z.unknown())
  .describe('The type’s settings (docs/evaluations.md#evaluators)');

export const createEvaluatorBody = z.strictObject({
  name: evaluatorName,
  type: z.enum(evaluatorTypeNames),
  config: config.optional(),
});

/** The type is fixed at creation; the name and the settings may change. */
export const changeEvaluatorBody = z.strictObject({
  name: evaluatorName.optional(),
  config: config.optional(),
});

/** `POST /v1/evaluators/test`: an evaluator, saved or not, on one case. */
export const testEvaluatorBody = z.strictObject({
  type: z.enum(evaluatorTypeNames),
  config: config.optional(),
  output: z.string().max(1_000_000),
  input: z.unknown().optional(),
  expected_output: z.string().max(1_000_000).nullish(),
  latency_ms: z.number().nonnegative().nullish(),
  cost_usd: z.number().nonnegative().nullish(),
});

export type NewEvaluator = z.infer<typeof createEvaluatorBody>;
export type EvaluatorChange = z.infer<typeof changeEvaluatorBody>;
export type EvaluatorTest = z.infer<typeof testEvaluatorBody>;
