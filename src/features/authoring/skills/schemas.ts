import { z } from 'zod';

const skillName = z.string().trim().min(1).max(200);

const metadataEntry = z.strictObject({
  name: z.string().min(1).max(100),
  value: z.unknown().optional(),
  required: z.boolean().optional(),
  type: z.string().max(50).optional(),
});

export const createSkillBody = z.strictObject({
  name: skillName,
  /** A skill type's name or GUID (`GET /v1/skills/types`). */
  type: z.string().min(1).max(100),
  metadata: z.array(metadataEntry).max(50).nullish(),
});

/** docs/api.md#how-the-parts-behave: PUT changes the name only; type and metadata are fixed at creation. */
export const renameSkillBody = z.strictObject({ name: skillName });

export const skillPromptBody = z.strictObject({ prompt: z.string().min(1).max(100_000) });

export type CreateSkillInput = z.infer<typeof createSkillBody>;
