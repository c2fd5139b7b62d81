import { z } from 'zod';
import { folderPath } from '../../../core/folders.js';
import { guid, versionNumber } from '../../../core/guid.js';

const templateText = z.string().max(200_000);

export const templateMessage = z.strictObject({
  role: z.enum(['system', 'user', 'assistant']),
  content: templateText,
});

export const toolDefinition = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" and "-", at most 64 characters'),
  description: z.string().max(5_000).optional(),
  parameters: z.record(z.string(), z.unknown()).optional().describe('JSON Schema of the arguments'),
});

/** The official SDK's camelCase names for model_config fields (its `ModelConfig` type). */
const sdkModelConfigNames: Record<string, string> = {
  topP: 'top_p',
  maxResponseLength: 'max_response_length',
  presencePenalty: 'presence_penalty',
  frequencyPenalty: 'frequency_penalty',
  stopSequence: 'stop',
  numRetries: 'num_retries',
  responseFormat: 'response_format',
};

/** Renames the SDK's names to ours, unless the field is also given under our name (then both are refused). */
function withOurNames(config: unknown): unknown {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return config;
  const renamed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(config)) {
    const ours = sdkModelConfigNames[name];
    renamed[ours && !(ours in config) ? ours : name] = value;
  }
  return renamed;
}

const modelConfigFields = z.strictObject({
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  max_response_length: z
    .number()
    .int()
    .positive()
    .max(1_000_000)
    .optional()
    .describe('maximum output tokens'),
  presence_penalty: z.number().min(-2).max(2).optional(),
  frequency_penalty: z.number().min(-2).max(2).optional(),
  stop: z
    .union([z.string().min(1), z.array(z.string().min(1)).max(16)])
    .transform((stop) => (typeof stop === 'string' ? [stop] : stop))
    .optional(),
  seed: z.number().int().optional(),
  response_format: z.enum(['text', 'json_object', 'json_schema']).optional(),
  json_schema: z.record(z.string(), z.unknown()).optional(),
  num_retries: z.number().int().min(0).max(10).optional().describe('retries on retryable provider errors'),
  timeout: z
    .number()
    .positive()
    .max(3_600)
    .optional()
    .describe('seconds a model call may take, its retries included (default 300)'),
});

export const modelConfig = z.preprocess(withOurNames, modelConfigFields);

const slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,99}$/, 'lowercase letters, digits, "_" and "-", at most 100 characters')
  .refine((value) => !guid.safeParse(value).success, 'must not look like a GUID');

export const environment = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" and "-", at most 64 characters');

/** The versioned part of an Action: what a new version may change. */
const versionFields = {
  model: z.string().trim().min(1).max(300),
  model_config: modelConfig.optional(),
  prompt: templateText.nullable().optional(),
  messages: z.array(templateMessage).max(500).nullable().optional(),
  system_message: templateText.nullable().optional(),
  contexts: z.array(guid).max(100).optional(),
  skills: z.array(guid).max(100).optional(),
  tools: z.array(toolDefinition).max(128).optional(),
};

export const createActionBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  app: guid,
  slug: slug.optional(),
  description: z.string().max(5_000).optional(),
  action_type: z.string().min(1).max(64).optional(),
  default_environment: environment.optional(),
  folder: folderPath.optional(),
  ...versionFields,
});

export const updateActionBody = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  app: guid.optional(),
  slug: slug.optional(),
  description: z.string().max(5_000).optional(),
  action_type: z.string().min(1).max(64).optional(),
  default_environment: environment.optional(),
  folder: folderPath
    .optional()
    .describe('Files the Action in this folder; a save of `folder` alone makes no new version'),
  base_version: versionNumber
    .optional()
    .describe(
      'The version this change started from: when it is no longer the latest, 409 `version_conflict` and nothing is saved',
    ),
  ...versionFields,
  model: versionFields.model.optional(),
});

/**
 * An unsaved version to run once (the console's playground): the fields given replace the latest
 * version's, checked as a save would check them, and nothing is saved.
 */
export const draftVersion = z
  .strictObject({ ...versionFields, model: versionFields.model.optional() })
  .describe('run these version fields over the latest version without saving them');

export type DraftVersionInput = z.infer<typeof draftVersion>;

export const deployBody = z.strictObject({
  version: versionNumber,
  environment,
  force: z
    .boolean()
    .optional()
    .describe('Deploy even if the release gate is unmet (admins and owners; the audit record says so)'),
});

export const actionListQuery = z.object({
  app: guid.optional(),
  q: z.string().trim().min(1).max(200).optional().describe('text the name or the slug contains'),
  folder: folderPath.optional().describe('only Actions in this folder and below'),
});

export const guidOrSlugParams = z.object({ guidOrSlug: z.string().min(1).max(200) });

export type CreateActionInput = z.infer<typeof createActionBody>;
export type UpdateActionInput = z.infer<typeof updateActionBody>;
export type DeployInput = z.infer<typeof deployBody>;

/** `PUT /v1/actions/{guid}/skills` (the official SDK's `updateSkills`): the whole set, saved as a new version. */
export const actionSkillsBody = z.strictObject({ skills: versionFields.skills.unwrap() });

/** `PUT /v1/actions/{guid}/context`: the SDK sends `context`; `contexts` (the record's field) is accepted too. */
export const actionContextsBody = z
  .strictObject({ context: versionFields.contexts, contexts: versionFields.contexts })
  .refine((body) => (body.context === undefined) !== (body.contexts === undefined), {
    message: 'give the Context GUIDs as "context" (or "contexts"), once',
    path: ['context'],
  });
