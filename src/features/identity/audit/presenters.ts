import type { AuditRow } from './repository.js';
import type { AuditRecordResponse } from './responses.js';

export function presentAuditRecord(row: AuditRow): AuditRecordResponse {
  return {
    guid: row.id,
    at: row.at.toISOString(),
    actor: { type: row.actorType, guid: row.actorId, label: row.actorLabel },
    action: row.action,
    resource: row.resourceType ? { type: row.resourceType, guid: row.resourceId } : null,
    status: row.status,
    request_id: row.requestId,
    ip: row.ip,
    user_agent: row.userAgent,
    changes: (row.changes ?? null) as AuditRecordResponse['changes'],
  };
}
