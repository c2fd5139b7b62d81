import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { workspaceOf } from '../../../http/authentication.js';
import { sendJsonLines } from '../../../http/json-lines.js';
import { presentAuditRecord } from './presenters.js';
import type { AuditFilter } from './repository.js';
import { auditExportResponse, auditRecordResponse } from './responses.js';
import type { AuditService } from './service.js';

const filterQuery = z.strictObject({
  actor: guid.optional().describe('a person, key or admin GUID'),
  resource: z.string().max(200).optional().describe('a resource GUID'),
  action: z.string().max(300).optional().describe('a prefix such as `POST /v1/actions`'),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
});

function filterOf(workspaceId: string, query: z.output<typeof filterQuery>): AuditFilter {
  return {
    workspaceId,
    actor: query.actor,
    resource: query.resource,
    action: query.action,
    since: query.since ? new Date(query.since) : undefined,
    until: query.until ? new Date(query.until) : undefined,
  };
}

/** The workspace's audit log (docs/api.md#audit-log): read and exported, never changed. */
export function auditRoutes(audit: AuditService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['audit log'];

    app.get(
      '/audit_log',
      {
        schema: {
          tags,
          'x-right': 'audit',
          querystring: filterQuery.extend(paginationQuery.shape),
          response: { 200: listResponse(auditRecordResponse) },
        },
      },
      async (request) => {
        const { skip, limit, ...filters } = request.query;
        const { rows, total } = await audit.list(filterOf(workspaceOf(request).id, filters), { skip, limit });
        return listEnvelope(rows.map(presentAuditRecord), total, { skip, limit });
      },
    );

    // JSON Lines, newest first, streamed a batch at a time: any size of log, constant memory.
    app.get(
      '/audit_log/export',
      {
        schema: {
          tags,
          'x-right': 'audit',
          querystring: filterQuery,
          response: { 200: auditExportResponse },
        },
      },
      async (request, reply) => {
        const records = audit.stream(filterOf(workspaceOf(request).id, request.query));
        return sendJsonLines(reply, records, presentAuditRecord, 'audit-log.jsonl');
      },
    );
  };
}
