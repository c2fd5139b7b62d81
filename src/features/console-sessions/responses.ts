import { z } from 'zod';
import { guid } from '../../core/wire.js';

/** Who the console is signed in as. */
export const signedInResponse = z.strictObject({ workspace: z.strictObject({ guid, name: z.string() }) });

export const signedOutResponse = z.strictObject({
  signed_out: z.literal(true),
  sessions_ended: z.number().int().optional().describe('Signing out everywhere: the sessions ended'),
});

export type SignedInResponse = z.output<typeof signedInResponse>;
