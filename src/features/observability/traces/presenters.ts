import type { SpanRow, TraceRow } from './repository.js';
import type { SpanResponse, TraceResponse, TraceWithSpansResponse } from './responses.js';
import type { TraceWithSpans } from './service.js';

/** A time in nanoseconds since the epoch as ISO 8601 with all nine digits of the second's fraction. */
export function isoNanos(unixNano: bigint): string {
  const millis = unixNano / 1_000_000n;
  const seconds = new Date(Number(millis)).toISOString().slice(0, 19);
  const fraction = (unixNano % 1_000_000_000n).toString().padStart(9, '0');
  return `${seconds}.${fraction}Z`;
}

const milliseconds = (start: bigint, end: bigint) => Number(end - start) / 1_000_000;

export function presentTrace(row: TraceRow): TraceResponse {
  return {
    trace_id: row.traceId,
    name: row.name,
    start_time: isoNanos(row.startUnixNano),
    end_time: isoNanos(row.endUnixNano),
    duration_ms: milliseconds(row.startUnixNano, row.endUnixNano),
    status: row.failed ? 'ERROR' : (row.rootStatus ?? 'UNSET'),
    span_count: row.spanCount,
    service_name: row.serviceName,
    session: row.session,
    cost: row.cost,
    input_tokens: row.inputTokens,
    output_tokens: row.outputTokens,
  };
}

export function presentSpan(row: SpanRow): SpanResponse {
  return {
    span_id: row.spanId,
    parent_span_id: row.parentSpanId,
    name: row.name,
    kind: row.kind,
    start_time: isoNanos(row.startUnixNano),
    end_time: isoNanos(row.endUnixNano),
    duration_ms: milliseconds(row.startUnixNano, row.endUnixNano),
    status: row.status,
    status_message: row.statusMessage,
    service_name: row.serviceName,
    attributes: row.attributes,
    events: row.events.map((event) => ({
      name: event.name,
      time: isoNanos(BigInt(event.timeUnixNano)),
      attributes: event.attributes,
    })),
    data_guid: row.generationId,
  };
}

/**
 * Spans in the order a waterfall draws them: each parent before its children, siblings by start
 * time. A span whose parent is not (yet) stored stands at the top level, where its parent would.
 */
export function treeOrder(spans: SpanRow[]): SpanRow[] {
  const present = new Set(spans.map((span) => span.spanId));
  const children = new Map<string | null, SpanRow[]>();
  for (const span of spans) {
    const parent = span.parentSpanId !== null && present.has(span.parentSpanId) ? span.parentSpanId : null;
    const siblings = children.get(parent);
    if (siblings) siblings.push(span);
    else children.set(parent, [span]);
  }
  const ordered: SpanRow[] = [];
  const visit = (parent: string | null) => {
    // The repository reads spans by start time, so each list of siblings is in order already.
    for (const span of children.get(parent) ?? []) {
      if (ordered.length >= spans.length) return;
      ordered.push(span);
      visit(span.spanId);
    }
  };
  visit(null);
  return ordered;
}

export function presentTraceWithSpans(found: TraceWithSpans): TraceWithSpansResponse {
  return { ...presentTrace(found.trace), spans: treeOrder(found.spans).map(presentSpan) };
}
