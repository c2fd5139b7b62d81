import { z } from 'zod';
import { guid } from '../../../core/guid.js';
import { promptMessage } from '../../../core/message-schemas.js';

const tokenCount = z.number().int().min(0).max(100_000_000);
const milliseconds = z.number().int().min(0).max(86_400_000);
const metadata = z.record(z.string(), z.unknown());

/** The fields of a generation made elsewhere; the official SDK's names are accepted beside ours. */
const loggedFields = {
  input: z.unknown(),
  output: z.string().max(10_000_000),
  full_prompt_sent: z
    .union([z.array(promptMessage).max(10_000), z.string().max(10_000_000)])
    .nullable()
    .optional()
    .describe('The messages sent; a string (as the official SDK types it) is one user message.'),
  system_message: z
    .string()
    .max(200_000)
    .nullable()
    .optional()
    .describe('The official SDK’s systemMessage: stored as the first message of full_prompt_sent.'),
  num_input_tokens: tokenCount.nullable().optional(),
  num_output_tokens: tokenCount.nullable().optional(),
  model: z.string().max(300).nullable().optional(),
  model_provider: z.string().max(100).nullable().optional(),
  latency_ms: milliseconds.nullable().optional(),
  latency: milliseconds.nullable().optional().describe('The official SDK’s name for latency_ms.'),
  ext_user_id: z.string().max(256).nullable().optional(),
  metadata: metadata.nullable().optional(),
  meta_data: metadata.nullable().optional().describe('The official SDK’s name for metadata.'),
  source: z.string().min(1).max(64).optional(),
};

/** `POST /v1/data`: a generation made elsewhere (the gateway logs through it), docs/api.md#generations-v1data. */
export const logDataBody = z.strictObject({
  ...loggedFields,
  action: guid,
  version: z
    .number()
    .int()
    .min(1)
    .max(2_147_483_647)
    .nullable()
    .optional()
    .describe('Lectern: the Action version that made it (the gateway logs a managed prompt’s version).'),
  environment: z
    .string()
    .min(1)
    .max(64)
    .nullable()
    .optional()
    .describe('Lectern: the environment that version was deployed to.'),
  input: loggedFields.input.refine((input) => input !== undefined, 'is required'),
  session: guid.nullable().optional(),
});

export type LogDataInput = z.infer<typeof logDataBody>;

/** `POST /v1/data/batch`: up to 500 records in one request, stored together or not at all. */
export const logDataBatchBody = z.strictObject({ records: z.array(logDataBody).min(1).max(500) });

/**
 * `PUT /v1/data/{guid}` (the official SDK's `data.update`): the fields given replace the stored ones.
 * A generation stays with its Action and session; naming them is allowed only unchanged.
 */
export const updateDataBody = z
  .strictObject({
    ...loggedFields,
    input: loggedFields.input.optional(),
    output: loggedFields.output.optional(),
    action: guid.optional(),
    session: guid.nullable().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give at least one field to change',
  });

export type UpdateDataInput = z.infer<typeof updateDataBody>;

/** `GET /v1/data`: filters over every generation of the workspace (docs/api.md#generations-v1data). */
export const dataSearchQuery = z.object({
  action: guid.optional(),
  session: guid.optional(),
  experiment: guid.optional(),
  model: z
    .string()
    .min(1)
    .max(300)
    .optional()
    .describe('the model as stored (`gpt-4o-mini`) or with its provider (`openai/gpt-4o-mini`)'),
  environment: z.string().min(1).max(64).optional(),
  version: z.coerce.number().int().min(1).optional(),
  source: z.string().min(1).max(64).optional(),
  from: z.iso.datetime({ offset: true }).optional().describe('created at or after (ISO 8601)'),
  to: z.iso.datetime({ offset: true }).optional().describe('created before (ISO 8601)'),
  q: z.string().trim().min(1).max(200).optional().describe('text the input or the output contains'),
  feedback: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Generations with a feedback record of this value (`good`, `thumbs_up`, `5`)'),
  evaluator: guid.optional().describe('With score_below: the evaluator whose monitor score is compared'),
  score_below: z.coerce
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('Generations a monitor scored below this with `evaluator`'),
});

export type DataSearchQuery = z.infer<typeof dataSearchQuery>;

/** `GET /v1/data/export`: the list's filters and the file's format. */
export const dataExportQuery = dataSearchQuery.extend({
  format: z
    .enum(['jsonl', 'csv', 'openai_chat'])
    .default('jsonl')
    .describe('openai_chat: OpenAI chat fine-tuning lines (the prompt sent, then the output)'),
});

/** `GET /v1/statistics`: a span (default the last 30 days, at most 366) and optionally one Action. */
export const statisticsQuery = z.object({
  from: z.iso.datetime({ offset: true }).optional().describe('start, inclusive (ISO 8601)'),
  to: z.iso.datetime({ offset: true }).optional().describe('end, exclusive (ISO 8601); default now'),
  action: guid.optional(),
});
