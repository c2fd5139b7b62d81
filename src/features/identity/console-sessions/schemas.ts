import { z } from 'zod';
import { guid } from '../../../core/wire.js';
import { maximumPasswordLength } from '../people/index.js';

/** A sign-in: a workspace API key, or a person's e-mail address and password. */
export const signInBody = z.strictObject({
  api_key: z
    .string()
    .trim()
    .min(1)
    .max(512)
    .optional()
    .describe('a workspace API key; exchanged, never stored'),
  email: z.email({ message: 'must be an e-mail address' }).max(320).optional(),
  password: z.string().min(1).max(maximumPasswordLength).optional(),
});

export const switchWorkspaceBody = z.strictObject({ workspace: guid });
