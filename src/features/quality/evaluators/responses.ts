import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';

export const evaluatorResponse = z
  .strictObject({
    guid,
    name: z.string(),
    type: z.string(),
    config: z.record(z.string(), z.unknown()),
    needs_expected_output: z.boolean().describe('Whether it compares with an item’s expected_output'),
    created_by_id: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Evaluator' });

export const scoreResponse = z
  .strictObject({
    score: z.number().min(0).max(1).nullable(),
    error: z.string().nullable().describe('Why the score is null'),
  })
  .meta({ id: 'Score' });

export type EvaluatorResponse = z.output<typeof evaluatorResponse>;
export type ScoreResponse = z.output<typeof scoreResponse>;
