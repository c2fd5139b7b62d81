import { z } from 'zod';
import { guid } from './guid.js';

// Response pieces every feature's responses.ts shares. Wire schemas import zod, each other and
// core/guid.ts only,
// so the console can import their types (src/contract.ts) without the server's code.

/** A moment as the API writes it: `Date.prototype.toISOString()`. */
export const timestamp = z.iso.datetime();

// A GUID is the same schema in an answer as in a request.
export { guid };

/** Any JSON a client stored (metadata, inputs, feedback values): passed back as given. */
export const anyJson = z.unknown();

/** The error body of docs/api.md#errors, for every 4xx and 5xx answer. */
export const errorResponse = z
  .strictObject({
    error: z.strictObject({
      status: z.number().int(),
      code: z.string(),
      message: z.string(),
      field: z
        .string()
        .optional()
        .describe(
          'For a validation error: the field it names, as the client wrote it (`name`, `messages.0.content`)',
        ),
      details: z
        .union([z.array(z.record(z.string(), z.unknown())), z.record(z.string(), z.unknown())])
        .optional()
        .describe(
          'For a refused deploy (`gate_failed`): one entry per unmet condition of the release gate. For `version_conflict`: `{ latest_version }`',
        ),
    }),
    message: z.string(),
    detail: z.string(),
  })
  .meta({ id: 'Error' });

export type ErrorResponse = z.output<typeof errorResponse>;

/** A page of a list: `{ data, total_count, has_next_page }`. */
export function listResponse<Row extends z.ZodType>(row: Row) {
  return z.strictObject({ data: z.array(row), total_count: z.number().int(), has_next_page: z.boolean() });
}

/** The answer to a DELETE of a resource addressed by GUID. */
export const removedResponse = z.strictObject({ guid, deleted: z.literal(true) });

/** What a change that answers nothing else answers, as the hosted original did. */
export const successResponse = z.strictObject({ status: z.literal('success') });

/** An answer that is one message: the hosted original's `{ msg }`. */
export const messageResponse = z.strictObject({ msg: z.string() });

export type RemovedResponse = z.output<typeof removedResponse>;

/** A message as requests send it and `full_prompt_sent` stores it: text, or parts (text, images, files). */
export const promptMessage = z.strictObject({
  role: z.string(),
  content: z.union([z.string(), z.array(z.record(z.string(), z.unknown()))]),
});

/** A JSON object a client gave (metadata, model settings). */
export const jsonObject = z.record(z.string(), z.unknown());
