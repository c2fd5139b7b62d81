import { z } from 'zod';
import { guid, versionNumber } from '../../../core/guid.js';
import { environment } from '../../authoring/actions/index.js';

export const gateParams = z.object({ guid, environment });

export const approvalParams = z.object({ guid, version: z.coerce.number().pipe(versionNumber) });

export const checkQuery = z.object({ version: z.coerce.number().pipe(versionNumber) });

/** `PUT /v1/actions/{guid}/gates/{environment}`: what a deploy there needs. */
export const setGateBody = z
  .strictObject({
    dataset: guid,
    evaluators: z
      .array(guid)
      .min(1)
      .max(20)
      .refine((ids) => new Set(ids).size === ids.length, 'names an evaluator twice'),
    min_mean: z
      .record(guid, z.number().min(0).max(1))
      .default({})
      .describe('The least mean score each evaluator must reach'),
    max_regressions: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .optional()
      .describe('At most this many items worse than the version deployed there now'),
    approvals: z
      .number()
      .int()
      .min(1)
      .max(20)
      .optional()
      .describe('Admins or owners, other than the version’s author, who approved the version'),
  })
  .superRefine((gate, context) => {
    for (const id of Object.keys(gate.min_mean))
      if (!gate.evaluators.includes(id))
        context.addIssue({
          code: 'custom',
          path: ['min_mean', id],
          message: 'is not one of the gate’s evaluators',
        });
  });

export type GateSettings = z.infer<typeof setGateBody>;
