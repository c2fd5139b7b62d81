import { z } from 'zod';
import { anyJson, guid, jsonObject, promptMessage, timestamp } from '../../../core/wire.js';
import { feedbackResponse } from '../feedback/responses.js';

/** One stored generation (`data` on the wire). */
export const generationResponse = z
  .strictObject({
    guid,
    action: guid
      .nullable()
      .describe('Null for a model call traced over OpenTelemetry that names no Action (`lectern.action`)'),
    action_guid: guid.nullable().describe('The official SDK’s name for `action`'),
    trace_id: z.string().nullable().describe('The trace it was made in (`GET /v1/traces/{trace_id}`)'),
    span_id: z.string().nullable().describe('Its span in that trace'),
    session: guid.nullable(),
    input: anyJson,
    output: z.string(),
    full_prompt_sent: z.array(promptMessage),
    model: z.string().nullable(),
    model_provider: z.string().nullable(),
    num_input_tokens: z.number().int().nullable(),
    num_output_tokens: z.number().int().nullable(),
    latency_ms: z.number().int().nullable(),
    cost: z
      .strictObject({ input: z.number(), output: z.number(), generation: z.number() })
      .nullable()
      .describe('USD; null when the model’s price is unknown'),
    environment: z.string().nullable(),
    version: z.number().int().nullable(),
    ext_user_id: z.string().nullable(),
    metadata: jsonObject,
    meta_data: jsonObject.describe('The official SDK’s name for `metadata`'),
    source: z
      .string()
      .describe('sync, stream, async, experiment, workflow, skill, evaluation, mcp, api, gateway'),
    cached: z.boolean(),
    experiment: guid.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Generation' });

export const listedGenerationResponse = generationResponse.extend({
  feedback_count: z.number().int().describe('Its feedback records that are not deleted'),
});

export const generationWithFeedbackResponse = generationResponse.extend({
  feedback: z.array(feedbackResponse),
  scores: z
    .record(guid, z.number().min(0).max(1).nullable())
    .optional()
    .describe('Monitors’ scores by evaluator GUID, once a monitor sampled it (null: not computable)'),
});

export const loggedBatchResponse = z.strictObject({ data: z.array(z.strictObject({ guid })) });

/** How many runs' latest rating is good and bad, on Klu's scale or in words (statistics-repository.ts). */
const ratingCounts = {
  good_feedback: z
    .number()
    .int()
    .describe('Runs whose latest rating is good: Klu’s "2", or "positive" or "good"'),
  bad_feedback: z
    .number()
    .int()
    .describe('Runs whose latest rating is bad: Klu’s "1", or "negative" or "bad"'),
};

/** `GET /v1/statistics`: the dashboard's series. */
export const statisticsResponse = z.strictObject({
  from: timestamp,
  to: timestamp,
  days: z.array(
    z.strictObject({
      day: z.string().describe('YYYY-MM-DD (UTC)'),
      runs: z.number().int(),
      input_tokens: z.number().int(),
      output_tokens: z.number().int(),
      cost: z.number(),
      feedback_rate: z.number().nullable(),
      ...ratingCounts,
      errors: z.number().int(),
    }),
  ),
  actions: z.array(
    z.strictObject({
      action: guid,
      runs: z.number().int(),
      latency_p50_ms: z.number().nullable(),
      latency_p95_ms: z.number().nullable(),
      feedback_rate: z.number().nullable(),
      ...ratingCounts,
    }),
  ),
  scores: z
    .array(
      z.strictObject({
        day: z.string().describe('YYYY-MM-DD (UTC): the day the scored generations were made'),
        evaluator: guid,
        name: z.string().nullable().describe('The evaluator’s name (null once it is deleted)'),
        mean: z.number(),
        n: z.number().int().describe('Generations scored (null scores left out)'),
      }),
    )
    .describe('Monitors’ daily mean score per evaluator'),
});

/**
 * `GET /v1/data/export`: one generation per line (JSON Lines), or CSV. Streamed text, never serialized
 * as JSON, so its schema is open.
 */
export const exportResponse = {
  description: 'The generations, streamed as text',
  content: {
    'application/x-ndjson': { schema: z.unknown().describe('One generation (JSON) per line') },
    'text/csv': { schema: z.unknown().describe('A header row, then one generation per row') },
  },
};

export type GenerationResponse = z.output<typeof generationResponse>;
export type ListedGenerationResponse = z.output<typeof listedGenerationResponse>;
export type GenerationWithFeedbackResponse = z.output<typeof generationWithFeedbackResponse>;
export type StatisticsResponse = z.output<typeof statisticsResponse>;
