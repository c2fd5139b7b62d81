import { z } from 'zod';
import { guid, jsonObject, timestamp } from '../../../core/wire.js';

/** The versioned part of an Action: what saving a new version may change. */
export const versionFields = z.strictObject({
  model: z.string(),
  model_config: jsonObject,
  prompt: z.string().nullable(),
  messages: z
    .array(z.strictObject({ role: z.enum(['system', 'user', 'assistant']), content: z.string() }))
    .nullable(),
  system_message: z.string().nullable(),
  contexts: z.array(guid),
  skills: z.array(guid),
  tools: z.array(
    z.strictObject({
      name: z.string(),
      description: z.string().optional(),
      parameters: jsonObject.optional(),
    }),
  ),
  snippets: z
    .record(z.string(), z.number().int())
    .describe('The snippet versions its templates include (name → version), pinned when it was saved'),
});

export const actionResponse = versionFields
  .extend({
    guid,
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    app: guid,
    action_type: z.string(),
    folder: z.string().describe('"" (the root) or "/"-separated segments'),
    version: z.number().int().describe('The latest saved version'),
    default_environment: z.string(),
    deployments: z.record(z.string(), z.number().int()).describe('Environment → deployed version'),
    disabled: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Action' });

export const listedActionResponse = actionResponse.extend({
  last_run_at: timestamp.nullable().describe('When its newest generation was stored; null when never run'),
});

export const actionVersionResponse = versionFields
  .extend({
    version: z.number().int(),
    environments: z.array(z.string()).describe('Where this version is deployed'),
    saved_by_id: z
      .string()
      .nullable()
      .describe('who saved it: a person’s GUID, or a creator-less key’s; null before people existed'),
    created_at: timestamp,
  })
  .meta({ id: 'ActionVersion' });

export type VersionFields = z.output<typeof versionFields>;
export type ActionResponse = z.output<typeof actionResponse>;
export type ListedActionResponse = z.output<typeof listedActionResponse>;
export type ActionVersionResponse = z.output<typeof actionVersionResponse>;
