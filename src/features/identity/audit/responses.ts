import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';
import { auditActorTypes } from '../../../core/wire-values.js';

/** What a version save changed, field by field: the audit record of `PUT /v1/actions/{guid}` carries it. */
export const versionDiffResponse = z
  .strictObject({
    from_version: z.number().int(),
    to_version: z.number().int(),
    fields: z.record(z.string(), z.strictObject({ before: z.unknown(), after: z.unknown() })),
  })
  .meta({ id: 'VersionDiff' });

/**
 * A record's changes: the request's body as sent (secrets redacted), which a version save completes
 * with its `version_diff`.
 */
const auditChanges = z
  .union([z.looseObject({ version_diff: versionDiffResponse.optional() }), z.array(z.unknown())])
  .nullable()
  .describe('what changed; secrets never appear');

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
    changes: auditChanges,
  })
  .meta({ id: 'AuditRecord' });

export type AuditRecordResponse = z.output<typeof auditRecordResponse>;
export type VersionDiffResponse = z.output<typeof versionDiffResponse>;

export const auditExportResponse = {
  description: 'The records, newest first, streamed as JSON Lines',
  content: { 'application/x-ndjson': { schema: z.unknown().describe('One AuditRecord per line') } },
};
