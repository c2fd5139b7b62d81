import { z } from 'zod';

export const signInBody = z.strictObject({
  api_key: z.string().trim().min(1).max(512).describe('a workspace API key; exchanged, never stored'),
});
