import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';
import { experimentStatuses } from '../../../core/wire-values.js';
import { asyncRunResponse, streamRunResponse, syncRunResponse } from '../runs/responses.js';

export const experimentResponse = z
  .strictObject({
    guid,
    name: z.string(),
    app_guid: guid,
    action_primary_guid: guid,
    action_secondary_guid: guid,
    split: z.number().describe('Share of traffic sent to the secondary Action, 0–1'),
    status: z.enum(experimentStatuses).describe('paused: every run goes to the primary'),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Experiment' });

export const removedExperimentResponse = experimentResponse.extend({ deleted: z.literal(true) });

const variant = z.enum(['primary', 'secondary']);

/** One arm's figures: runs, feedback counts by type and value, and the positive rate with its interval. */
const armResponse = z.strictObject({
  variant,
  action: guid,
  runs: z.number().int(),
  feedback: z.record(z.string(), z.record(z.string(), z.number().int())),
  positive_rating: z
    .strictObject({
      value: z.string(),
      rate: z.number().nullable(),
      low: z.number().nullable(),
      high: z.number().nullable(),
      trials: z.number().int(),
    })
    .optional()
    .describe('For a two-valued rating: the positive value and its rate with a 95% Wilson interval'),
});

export const experimentResultsResponse = z.strictObject({
  experiment: experimentResponse,
  arms: z.tuple([armResponse, armResponse]),
});

/** A run's answer, with the arm that served it. */
const servedBy = { action: guid, variant };
export const experimentRunResponse = z.union([
  syncRunResponse.extend(servedBy),
  streamRunResponse.extend(servedBy),
  asyncRunResponse.extend(servedBy),
]);

export type ExperimentResponse = z.output<typeof experimentResponse>;
export type ExperimentResultsResponse = z.output<typeof experimentResultsResponse>;
export type ExperimentRunResponse = z.output<typeof experimentRunResponse>;
