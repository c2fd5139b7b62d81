import { z } from 'zod';
import { roles } from '../../../core/roles.js';
import { guid } from '../../../core/wire.js';
import { personSummary } from '../people/responses.js';

/** Who the console is signed in as. */
export const signedInResponse = z.strictObject({
  workspace: z.strictObject({ guid, name: z.string() }),
  role: z.enum(roles),
  user: personSummary.nullable().describe('null when signed in with an API key that has no creator'),
});

export const signedOutResponse = z.strictObject({
  signed_out: z.literal(true),
  sessions_ended: z.number().int().optional().describe('Signing out everywhere: the sessions ended'),
});

/** How the sign-in page may sign in, and whether the instance still waits for its first owner. */
export const signInOptionsResponse = z.strictObject({
  password: z.literal(true),
  sso: z.boolean().describe('single sign-on with the OpenID provider is configured'),
  api_key: z.boolean().describe('the console accepts an API key (LECTERN_CONSOLE_KEY_SIGNIN)'),
});

export const setupStateResponse = z.strictObject({
  pending: z.boolean(),
  owner_exists: z.boolean().describe('The instance has its first owner: a restart prints no new setup link'),
});

export type SignedInResponse = z.output<typeof signedInResponse>;
