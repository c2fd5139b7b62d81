import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';

export const sessionResponse = z
  .strictObject({
    guid,
    name: z.string().nullable(),
    action: guid,
    ext_user_id: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Session' });

export const removedSessionResponse = sessionResponse.extend({ deleted: z.literal(true) });

export type SessionResponse = z.output<typeof sessionResponse>;
