import { z } from 'zod';

/** Every resource is addressed by GUID; anything else is a 400 before any lookup. */
export const guid = z.uuid({ message: 'must be a GUID' });

export const guidParams = z.object({ guid });

export function isGuid(value: string): boolean {
  return guid.safeParse(value).success;
}

/** PostgreSQL's `integer`: a larger number in a field stored as one would fail the statement, not the request. */
export const largestStoredInteger = 2_147_483_647;

/** An Action version number. */
export const versionNumber = z.number().int().min(1).max(largestStoredInteger);
