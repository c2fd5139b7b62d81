import { z } from 'zod';
import { guid, versionNumber } from '../../../core/guid.js';
import { promptMessage } from '../../../core/message-schemas.js';
import { metadataFilter } from '../../../core/metadata-filter.js';
import { draftVersion, environment } from '../../authoring/actions/index.js';

/** A template variable's value: anything JSON except that the top level is a name → value map. */
const variables = z.record(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'variable names are identifiers'),
  z.unknown(),
);

/** What fills a run's prompt: a string, an object of template variables or an array of messages. */
export const promptInput = z.union(
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

/** The fields every way of running an Action accepts (docs/api.md#runs). */
export const runFields = {
  input: promptInput,
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

/** `POST /v1/actions/{guid}/prompt`: the run fields, and an unsaved draft to run instead of a version. */
export const runBody = z.strictObject({ ...runFields, draft: draftVersion.optional() });

/**
 * The legacy collection route `POST /v1/actions/` (docs/sdk-compatibility.md): the Action in the body, the
 * filter also as `metadata_filter`. Not strict: old clients send fields of their own.
 */
export const legacyRunBody = z.object({
  ...runFields,
  action: z.string().min(1).max(200),
  metadata_filter: metadataFilter.nullable().optional(),
});

/** What `gateway_payload` renders; it runs nothing, so the run-mode fields have no place here. */
export const gatewayPayloadBody = z.strictObject({
  input: promptInput,
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

/** A reconnecting EventSource names the last event id it received (docs/streaming.md). */
export const streamHeaders = z.object({
  'last-event-id': z
    .string()
    .regex(/^\d{1,9}$/, 'must be an event id this stream sent')
    .transform(Number)
    .optional(),
});

export type PromptInput = z.infer<typeof promptInput>;
/** A run request's body as the wire names it (run-input.ts reads it into the domain's names). */
export type RunBody = z.infer<typeof runBody>;
export type GatewayPayloadBody = z.infer<typeof gatewayPayloadBody>;
export type ModelOptions = z.infer<typeof modelOptions>;
