import { z } from 'zod';
import { guid } from '../../../core/wire.js';
import { spanKindNames, spanStatusNames } from '../../../core/wire-values.js';

/** A time as traces answer it: ISO 8601 with nanoseconds, as OTLP sent it. */
const spanTime = z.iso.datetime();

export const traceResponse = z
  .strictObject({
    trace_id: z.string().describe('32 lowercase hex characters'),
    name: z.string().nullable().describe("The root span's name; null until the root span arrives"),
    start_time: spanTime,
    end_time: spanTime,
    duration_ms: z.number(),
    status: z.enum(spanStatusNames).describe('ERROR when any span failed, else the root span’s'),
    span_count: z.number().int(),
    service_name: z.string().nullable().describe("The root span's resource `service.name`"),
    session: z.string().nullable().describe('`session.id` or `gen_ai.conversation.id` of its spans'),
    cost: z.number().describe('USD: the sum of its generations’ costs'),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
  })
  .meta({ id: 'Trace' });

export const spanResponse = z
  .strictObject({
    span_id: z.string(),
    parent_span_id: z.string().nullable(),
    name: z.string(),
    kind: z.enum(spanKindNames),
    start_time: spanTime,
    end_time: spanTime,
    duration_ms: z.number(),
    status: z.enum(spanStatusNames),
    status_message: z.string(),
    service_name: z.string().nullable(),
    attributes: z.record(z.string(), z.unknown()),
    events: z.array(
      z.strictObject({ name: z.string(), time: spanTime, attributes: z.record(z.string(), z.unknown()) }),
    ),
    data_guid: guid.nullable().describe('The generation this span is: a model call'),
  })
  .meta({ id: 'Span' });

export const traceWithSpansResponse = traceResponse
  .extend({ spans: z.array(spanResponse).describe('Parents before children, siblings by start time') })
  .meta({ id: 'TraceWithSpans' });

/** OTLP's `ExportTraceServiceResponse` in its JSON form. */
export const exportTraceServiceResponse = z
  .strictObject({
    partialSuccess: z
      .strictObject({
        rejectedSpans: z.number().int(),
        errorMessage: z.string(),
      })
      .optional(),
  })
  .meta({ id: 'ExportTraceServiceResponse' });

/** The receiver's answer, in the encoding the request came in. */
export const exportAnswer = {
  description: 'An OTLP `ExportTraceServiceResponse`: `partialSuccess` names the spans it refused and why',
  content: {
    'application/json': { schema: exportTraceServiceResponse },
    'application/x-protobuf': { schema: z.unknown().describe('The same message, protobuf-encoded') },
  },
};

export type TraceResponse = z.output<typeof traceResponse>;
export type SpanResponse = z.output<typeof spanResponse>;
export type TraceWithSpansResponse = z.output<typeof traceWithSpansResponse>;
