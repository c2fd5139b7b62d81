import { z } from 'zod';
import { guid } from '../../../core/guid.js';
import { paginationQuery } from '../../../core/pagination.js';

const name = z.string().trim().min(1).max(500);
const extUserId = z.string().min(1).max(256).describe('an opaque application identifier; never a secret');

export const createSessionBody = z.strictObject({
  action: guid,
  name: name.nullable().optional(),
  extUserId: extUserId.nullable().optional(),
});

/** docs/api.md#routes: PUT requires `name`. */
export const updateSessionBody = z.strictObject({
  name,
  extUserId: extUserId.nullable().optional(),
});

export const sessionListQuery = paginationQuery.extend({ extUserId: extUserId.optional() });

export type CreateSessionInput = z.infer<typeof createSessionBody>;
export type UpdateSessionInput = z.infer<typeof updateSessionBody>;
