import type { RemovedResponse } from '../core/wire.js';

/** The answer to a DELETE of a resource addressed by GUID. */
export function removed(guid: string): RemovedResponse {
  return { guid, deleted: true };
}
