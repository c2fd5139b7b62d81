import { z } from 'zod';
import { guid, jsonObject, promptMessage } from '../../../core/wire.js';

const cost = z.strictObject({ input: z.number(), output: z.number(), generation: z.number() });

/** A synchronous run: the model's answer, stored as a generation. */
export const syncRunResponse = z.strictObject({
  msg: z.string(),
  full_prompt_sent: z.array(promptMessage),
  data_guid: guid,
  feedback_url: z.string(),
  cost: cost.optional().describe('USD; absent when the model’s price is unknown'),
});

/** A streaming run: the one-time URL its tokens are read from. */
export const streamRunResponse = z.strictObject({
  msg: z.string(),
  full_prompt_sent: z.array(promptMessage),
  data_guid: guid,
  streaming: z.boolean(),
  streaming_url: z.string(),
  feedback_url: z.string(),
});

/**
 * An asynchronous run: the URL to poll, and the generation's GUID chosen up front, so feedback or a
 * session can name it before the run finishes.
 */
export const asyncRunResponse = z.strictObject({
  msg: z.string(),
  full_prompt_sent: z.null(),
  result_url: z.string(),
  data_guid: guid,
  feedback_url: z.string(),
});

export const runResponse = z.union([syncRunResponse, streamRunResponse, asyncRunResponse]);

/** `GET /v1/actions/result/{key}`: PENDING until done, then SUCCESS with the text (a failure is an error). */
export const runResultResponse = z.union([
  z.strictObject({ msg: z.literal('Generation in Progress'), status: z.literal('PENDING') }),
  z.strictObject({
    msg: z.string(),
    status: z.literal('SUCCESS'),
    data_guid: guid.optional(),
    feedback_url: z.string().optional(),
  }),
]);

/** `POST …/gateway_payload`: the rendered chat-completions request and the headers that go with it. */
export const gatewayPayloadResponse = z.strictObject({
  model: z.string(),
  messages: z.array(promptMessage),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  max_tokens: z.number().optional(),
  presence_penalty: z.number().optional(),
  frequency_penalty: z.number().optional(),
  stop: z.array(z.string()).optional(),
  seed: z.number().optional(),
  response_format: jsonObject.optional(),
  tools: z
    .array(
      z.strictObject({
        type: z.literal('function'),
        function: z.strictObject({
          name: z.string(),
          description: z.string().optional(),
          parameters: jsonObject,
        }),
      }),
    )
    .optional(),
  headers: z.record(z.string(), z.string()).describe('Authorization (a key the workspace stored), x-svc-*'),
});

/** `GET /api/streamByURL`: Server-Sent Events, never JSON. */
export const streamEventsResponse = {
  description: 'The run’s tokens as Server-Sent Events (docs/streaming.md)',
  content: { 'text/event-stream': { schema: z.unknown().describe('SSE frames') } },
};

export type SyncRunResponse = z.output<typeof syncRunResponse>;
export type StreamRunResponse = z.output<typeof streamRunResponse>;
export type AsyncRunResponse = z.output<typeof asyncRunResponse>;
export type RunResponse = z.output<typeof runResponse>;
export type RunResultResponse = z.output<typeof runResultResponse>;
export type GatewayPayloadResponse = z.output<typeof gatewayPayloadResponse>;
