import { z } from 'zod';

/** A free label (the official SDK's `appType`); Lectern runs every App the same way. */
const appType = z.string().trim().min(1).max(64).nullable();

export const createAppBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(5_000).optional(),
  app_type: appType.optional(),
});

export const updateAppBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(5_000).optional(),
    app_type: appType.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'give name, description or app_type',
  });

export type CreateAppInput = z.infer<typeof createAppBody>;
export type UpdateAppInput = z.infer<typeof updateAppBody>;
