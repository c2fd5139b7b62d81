import { z } from 'zod';

export const createAppBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(5_000).optional(),
});

export const updateAppBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(5_000).optional(),
  })
  .refine((body) => body.name !== undefined || body.description !== undefined, {
    message: 'give name or description',
  });

export type CreateAppInput = z.infer<typeof createAppBody>;
export type UpdateAppInput = z.infer<typeof updateAppBody>;
