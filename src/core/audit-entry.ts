import type { AuditActorType, Principal } from './roles.js';

// The audit log's entry, as every layer that records a change names it: the http layer's
// authorization hook records each configuring call, the audit feature stores and chains them.

export type AuditActor = { type: AuditActorType; id: string | null; label: string };

/** What the caller knows of a record; the service stamps its GUID and time and strips secrets. */
export type AuditEntry = {
  workspaceId: string | null;
  actor: AuditActor;
  /** `<METHOD> <route template>`, e.g. `PUT /v1/actions/{guid}`. */
  action: string;
  resource?: { type: string; id: string | undefined };
  status: number;
  request?: { id: string; ip: string; userAgent: string | undefined };
  changes?: unknown;
};

/** Who an authenticated request's principal is, as the log names them. */
export function actorOf(principal: Principal): AuditActor {
  if (principal.type === 'person')
    return { type: 'user', id: principal.person!.id, label: principal.person!.email };
  const key = principal.key!;
  const owner = principal.person ? ` of ${principal.person.email}` : '';
  return { type: 'key', id: key.id, label: `${key.name || 'API key'} (${key.prefix}…)${owner}` };
}
