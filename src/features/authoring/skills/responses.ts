import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';

export const skillResponse = z
  .strictObject({
    guid,
    name: z.string(),
    type: z.string(),
    metadata: z
      .array(
        z.strictObject({ name: z.string(), required: z.boolean(), value: z.unknown(), type: z.string() }),
      )
      .describe('Every setting of its type, defaults filled; secret values redacted'),
    created_by_id: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Skill' });

/** `GET /v1/skills/types`: each type with its settings. */
export const skillTypeResponse = z
  .strictObject({
    guid,
    name: z.string(),
    description: z.string(),
    input: z.string().describe('What the model is told to pass as the tool’s input'),
    metadata: z.array(
      z.strictObject({
        name: z.string(),
        required: z.boolean(),
        type: z.enum(['string', 'text', 'url', 'integer', 'select', 'headers', 'context', 'action']),
        value: z.unknown().describe('The default; null when there is none'),
        description: z.string(),
        options: z.array(z.string()).optional(),
        minimum: z.number().optional(),
        maximum: z.number().optional(),
      }),
    ),
  })
  .meta({ id: 'SkillType' });

export type SkillResponse = z.output<typeof skillResponse>;
export type SkillTypeResponse = z.output<typeof skillTypeResponse>;
