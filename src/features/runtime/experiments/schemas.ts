import { z } from 'zod';
import { guid } from '../../../core/guid.js';
import { experimentStatuses } from '../../../core/wire-values.js';
import { runFields } from '../runs/index.js';

const split = z
  .number()
  .min(0)
  .max(1)
  .describe('share of traffic sent to the secondary Action (default 0.5)');

/** docs/api.md#experiments, with the official SDK's field names. */
export const createExperimentBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  app_guid: guid,
  action_primary_guid: guid,
  action_secondary_guid: guid,
  split: split.optional(),
});

export const updateExperimentBody = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  action_primary_guid: guid.optional(),
  action_secondary_guid: guid.optional(),
  split: split.optional(),
  status: z.enum(experimentStatuses).optional(),
});

export const experimentRunBody = z
  .strictObject({
    ...runFields,
    force_action: guid
      .optional()
      .describe('diagnostics: run this arm of the experiment, bypassing assignment'),
    metadata_filter: runFields.metadata.describe('The official SDK’s name for `metadata`'),
  })
  .transform(({ metadata_filter, ...body }) => ({ ...body, metadata: body.metadata ?? metadata_filter }));

export type CreateExperimentInput = z.infer<typeof createExperimentBody>;
export type UpdateExperimentInput = z.infer<typeof updateExperimentBody>;
export type ExperimentRunInput = z.infer<typeof experimentRunBody>;
