import { z } from 'zod';
import { guid } from '../../http/params.js';
import { promptMessage } from '../runs/schemas.js';

const tokenCount = z.number().int().min(0).max(100_000_000);

/** `POST /v1/data`: a generation made elsewhere (the gateway logs through it), CONTRACT §6. */
export const logDataBody = z.strictObject({
  action: guid,
  input: z.unknown().refine((input) => input !== undefined, 'is required'),
  output: z.string().max(10_000_000),
  full_prompt_sent: z.array(promptMessage).max(10_000).nullable().optional(),
  num_input_tokens: tokenCount.nullable().optional(),
  num_output_tokens: tokenCount.nullable().optional(),
  model: z.string().max(300).nullable().optional(),
  model_provider: z.string().max(100).nullable().optional(),
  latency_ms: z.number().int().min(0).max(86_400_000).nullable().optional(),
  session: guid.nullable().optional(),
  ext_user_id: z.string().max(256).nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  source: z.string().min(1).max(64).optional(),
});

export type LogDataInput = z.infer<typeof logDataBody>;

/** `POST /v1/data/batch`: up to 500 records in one request, stored together or not at all. */
export const logDataBatchBody = z.strictObject({ records: z.array(logDataBody).min(1).max(500) });
