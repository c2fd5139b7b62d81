import { z } from 'zod';
import { paginationQuery } from '../../../core/pagination.js';
import { spanStatusNames } from '../../../core/wire-values.js';

export const traceListQuery = paginationQuery.extend({
  since: z.iso.datetime({ offset: true }).optional().describe('Traces that start at or after'),
  until: z.iso.datetime({ offset: true }).optional().describe('Traces that start before'),
  name: z.string().min(1).optional().describe("The root span's name, exactly"),
  session: z.string().min(1).optional(),
  status: z.enum(spanStatusNames).optional(),
  min_duration_ms: z.coerce.number().min(0).optional(),
});

export const traceIdParams = z.object({
  trace_id: z
    .string()
    .regex(/^[0-9a-fA-F]{32}$/, 'a trace id is 32 hex characters')
    .describe('32 hex characters'),
});

export type TraceListQuery = z.output<typeof traceListQuery>;
