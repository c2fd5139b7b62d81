import { z } from 'zod';
import { anyJson, guid, timestamp } from '../../core/wire.js';
import { auditActorTypes } from '../../core/wire-values.js';

export const auditRecordResponse = z
  .strictObject({
    guid,
    at: timestamp,
    actor: z.strictObject({
      type: z.enum(auditActorTypes),
      guid: guid.nullable(),
      label: z.string(),
    }),
    action: z.string().describe('`<METHOD> <route template>`, e.g. `PUT /v1/actions/{guid}`'),
    resource: z.strictObject({ type: z.string(), guid: z.string().nullable() }).nullable(),
    status: z.number().int().describe('the HTTP status answered'),
    request_id: z.string().nullable(),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    changes: anyJson.nullable().describe('what changed; secrets never appear'),
  })
  .meta({ id: 'AuditRecord' });

export type AuditRecordResponse = z.output<typeof auditRecordResponse>;

export const auditExportResponse = {
  description: 'The records, newest first, streamed as JSON Lines',
  content: { 'application/x-ndjson': { schema: z.unknown().describe('One AuditRecord per line') } },
};
