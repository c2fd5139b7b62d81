import type { HrTime } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { isGuid } from '../../../core/guid.js';
import type { SpanKindName } from '../../../core/wire-values.js';
import { workspaceAttribute } from '../../../platform/tracing.js';
import type { TracedCall } from './genai-mapping.js';
import type { Attributes, ReceivedSpan } from './received-spans.js';

// Lectern's own spans (platform/tracing.ts) as the receiver's spans: the same storage, the same
// reads. The SDK numbers kinds from INTERNAL = 0; OTLP from UNSPECIFIED = 0.

const kinds: SpanKindName[] = ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const statuses = ['UNSET', 'OK', 'ERROR'] as const;

const nanos = ([seconds, nanoseconds]: HrTime) => BigInt(seconds) * 1_000_000_000n + BigInt(nanoseconds);

/** The generation a span of a run names (`lectern.generation`): the one its model call stored. */
export function ownGeneration(span: ReceivedSpan): string | null {
  const id = span.attributes['lectern.generation'];
  return typeof id === 'string' && isGuid(id) ? id : null;
}

/** What a run's model-call span adds to its trace's totals: its tokens and `lectern.cost_usd`. */
export function ownCalls(spans: ReceivedSpan[]) {
  return spans.flatMap((span) => {
    if (!ownGeneration(span)) return [];
    const number = (key: string) => {
      const value = span.attributes[key];
      return typeof value === 'number' ? value : null;
    };
    const call = {
      inputTokens: number('gen_ai.usage.input_tokens'),
      outputTokens: number('gen_ai.usage.output_tokens'),
    } as TracedCall;
    const cost = number('lectern.cost_usd');
    return [{ span, call, cost: cost === null ? undefined : { input: 0, output: 0, generation: cost } }];
  });
}

/** An ended span of Lectern's as the receiver's span (`attributes`: what is stored of its own). */
export function receivedOf(span: ReadableSpan, attributes = span.attributes as Attributes): ReceivedSpan {
  return {
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId ?? null,
    name: span.name,
    kind: kinds[span.kind] ?? 'INTERNAL',
    startUnixNano: nanos(span.startTime),
    endUnixNano: nanos(span.endTime),
    status: statuses[span.status.code] ?? 'UNSET',
    statusMessage: span.status.message ?? '',
    attributes,
    events: span.events.map((event) => ({
      name: event.name,
      timeUnixNano: nanos(event.time),
      attributes: (event.attributes ?? {}) as Attributes,
    })),
    serviceName: 'lectern',
    scopeName: 'lectern',
  };
}

/** Ended spans of Lectern's runs, by the workspace each ran in. */
export function ownSpansByWorkspace(spans: ReadableSpan[]): Map<string, ReceivedSpan[]> {
  const byWorkspace = new Map<string, ReceivedSpan[]>();
  for (const span of spans) {
    const { [workspaceAttribute]: workspaceId, ...attributes } = span.attributes;
    if (typeof workspaceId !== 'string') continue;
    const received = receivedOf(span, attributes as Attributes);
    const ofWorkspace = byWorkspace.get(workspaceId);
    if (ofWorkspace) ofWorkspace.push(received);
    else byWorkspace.set(workspaceId, [received]);
  }
  return byWorkspace;
}
