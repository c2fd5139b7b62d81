import type { SessionResponse } from './responses.js';
import type { Session } from './service.js';

/** A session as the API answers it. */
export function presentSession(session: Session): SessionResponse {
  return {
    guid: session.id,
    name: session.name,
    action: session.actionId,
    ext_user_id: session.extUserId,
    created_at: session.createdAt.toISOString(),
    updated_at: session.updatedAt.toISOString(),
  };
}
