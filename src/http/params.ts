import { z } from 'zod';

/** Every resource is addressed by GUID; anything else is a 400 before any lookup. */
export const guid = z.uuid({ message: 'must be a GUID' });

export const guidParams = z.object({ guid });

export function isGuid(value: string): boolean {
  return guid.safeParse(value).success;
}
