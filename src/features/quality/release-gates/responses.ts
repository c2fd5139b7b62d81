import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';

export const gateResponse = z
  .strictObject({
    action: guid,
    environment: z.string(),
    dataset: guid,
    dataset_version: z
      .number()
      .int()
      .describe(
        'The dataset version the gate pinned when it was set: the evaluation it reads ran on it, with each evaluator as it was then',
      ),
    evaluators: z.array(guid),
    min_mean: z.record(guid, z.number()),
    max_regressions: z.number().int().nullable(),
    approvals: z.number().int().nullable(),
    updated_by_id: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'ReleaseGate' });

export const gateConditionResponse = z
  .strictObject({
    condition: z.enum(['evaluation_missing', 'min_mean', 'max_regressions', 'approvals']),
    met: z.boolean(),
    evaluator: guid.optional(),
    required: z.unknown().optional(),
    actual: z.unknown().optional(),
    evaluation: guid.optional().describe('The evaluation the condition read'),
  })
  .meta({ id: 'GateCondition' });

export const gateCheckResponse = z.strictObject({
  action: guid,
  environment: z.string(),
  version: z.number().int(),
  gated: z.boolean().describe('Whether the environment has a release gate'),
  passed: z.boolean().describe('Whether a deploy would go through without force'),
  conditions: z.array(gateConditionResponse),
});

export const approvalsResponse = z
  .strictObject({
    action: guid,
    version: z.number().int(),
    approvals: z.array(z.strictObject({ user_id: z.string(), created_at: timestamp })),
  })
  .meta({ id: 'VersionApprovals' });

export type GateResponse = z.output<typeof gateResponse>;
export type GateCheckResponse = z.output<typeof gateCheckResponse>;
export type ApprovalsResponse = z.output<typeof approvalsResponse>;
