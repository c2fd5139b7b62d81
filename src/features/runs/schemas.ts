import { z } from 'zod';
import { metadataFilter } from '../../http/metadata-filter.js';
import { guid, versionNumber } from '../../http/params.js';
import { environment } from '../actions/schemas.js';

const base64 = z
  .string()
  .min(1)
  .max(30_000_000)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be Base64');

const dataUrl = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[\w.+-]+)*;base64,[A-Za-z0-9+/]+={0,2}$/;

const imageUrl = z
  .string()
  .max(30_000_000)
  .refine((url) => {
    if (url.startsWith('data:')) return dataUrl.test(url) && url.startsWith('data:image/');
    return URL.canParse(url) && /^https?:$/.test(new URL(url).protocol);
  }, 'must be an http(s) URL or a Base64 data URL of an image');

/** The content parts of SPEC §2; which ones a provider processes depends on the provider. */
export const messagePart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('image_url'),
    image_url: z.object({ url: imageUrl, detail: z.enum(['auto', 'low', 'high']).optional() }),
  }),
  z.object({
    type: z.literal('input_audio'),
    input_audio: z.object({ data: base64, format: z.enum(['wav', 'mp3']) }),
  }),
  z.object({
    type: z.literal('file'),
    file: z
      .object({
        file_data: z
          .string()
          .max(30_000_000)
          .refine(
            (data) => dataUrl.test(data) || base64.safeParse(data).success,
            'must be Base64 or a data URL',
          )
          .optional(),
        file_id: z.string().min(1).max(500).optional(),
        filename: z.string().min(1).max(500).optional(),
      })
      .refine((file) => file.file_data !== undefined || file.file_id !== undefined, {
        message: 'a file part needs file_data or file_id',
      }),
  }),
  z.object({ type: z.literal('refusal'), refusal: z.string() }),
]);

export const promptMessage = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant']),
  content: z.union([z.string(), z.array(messagePart).min(1).max(500)]),
});

/** A template variable's value: anything JSON except that the top level is a name → value map. */
const variables = z.record(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'variable names are identifiers'),
  z.unknown(),
);

export const runInput = z.union(
  [z.string().max(10_000_000), z.array(promptMessage).min(1).max(1_000), variables],
  {
    error: 'must be a string, an object of template variables or an array of messages',
  },
);

export const modelOptions = z.strictObject({
  provider: z.string().min(1).max(100).optional(),
  model: z.string().min(1).max(300).optional(),
  jsonSchema: z.record(z.string(), z.unknown()).optional(),
});

/** The fields every way of running an Action accepts (SPEC §4.1). */
export const runFields = {
  input: runInput,
  messages: z.array(promptMessage).max(1_000).optional(),
  cache: z.boolean().optional(),
  environment: environment.optional(),
  version: versionNumber.optional(),
  metadata: metadataFilter.optional(),
  filter: z.string().max(10_000).nullable().optional(),
  session: guid.nullable().optional(),
  extUserId: z.string().min(1).max(256).nullable().optional(),
  async_mode: z.boolean().optional(),
  streaming: z.boolean().optional(),
  modelOptions: modelOptions.optional(),
  store: z.boolean().optional(),
  do_not_execute_tool_calls: z.boolean().optional(),
};

export const runBody = z.strictObject(runFields);

/**
 * The legacy collection route `POST /v1/actions/` (CONTRACT §12): the Action in the body, the
 * filter also as `metadata_filter`. Not strict: old clients send fields of their own.
 */
export const legacyRunBody = z.object({
  ...runFields,
  action: z.string().min(1).max(200),
  metadata_filter: metadataFilter.nullable().optional(),
});

/** What `gateway_payload` renders; it runs nothing, so the run-mode fields have no place here. */
export const gatewayPayloadBody = z.strictObject({
  input: runInput,
  messages: runFields.messages,
  environment: runFields.environment,
  version: runFields.version,
  session: runFields.session,
  metadata: runFields.metadata,
  filter: runFields.filter,
  modelOptions: runFields.modelOptions,
});

export const resultParams = z.object({ resultKey: guid });

/** A client's key that makes a run request safe to retry (its answer is kept a day). */
export const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters')
    .optional(),
});

export const streamQuery = z.object({ guid, token: z.string().min(1).max(200) });

/** A reconnecting EventSource names the last event id it received (CONTRACT §7). */
export const streamHeaders = z.object({
  'last-event-id': z
    .string()
    .regex(/^\d{1,9}$/, 'must be an event id this stream sent')
    .transform(Number)
    .optional(),
});

export type RunInput = z.infer<typeof runInput>;
export type RunRequest = z.infer<typeof runBody>;
export type ModelOptions = z.infer<typeof modelOptions>;
