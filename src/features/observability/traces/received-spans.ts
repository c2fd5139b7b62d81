import {
  type SpanKindName,
  type SpanStatusName,
  spanKindNames,
  spanStatusNames,
} from '../../../core/wire-values.js';
import { storableText } from '../../../platform/storable-text.js';
import type {
  AnyValueMessage,
  ExportTraceServiceRequestMessage,
  Int64,
  KeyValueMessage,
  SpanMessage,
} from './otlp-messages.js';

/** An attribute value as stored: OTLP's scalars, lists and maps as JSON. */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | Attributes;
export type Attributes = { [key: string]: AttributeValue };

/** A span the receiver took, checked and flattened, with its resource's service name. */
export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: SpanKindName;
  startUnixNano: bigint;
  endUnixNano: bigint;
  status: SpanStatusName;
  statusMessage: string;
  attributes: Attributes;
  events: { name: string; timeUnixNano: bigint; attributes: Attributes }[];
  serviceName: string | null;
  scopeName: string | null;
};

/** What one span may hold; past these a span is refused or its value cut, and the answer says so. */
export const spanLimits = {
  attributes: 1_000,
  events: 1_000,
  /** Characters of one string value; a longer one is cut and the span marked `lectern.truncated`. */
  valueCharacters: 64 * 1024,
  nameCharacters: 1_024,
  /** Lists and maps nested deeper than this are cut: reading them back would cost more than they tell. */
  nestingDepth: 16,
};

export type ReceivedBatch = {
  spans: ReceivedSpan[];
  rejected: number;
  /** One line per refused or cut span, for the answer's `error_message`. */
  problems: string[];
};

const hexPattern = /^[0-9a-f]+$/;

/** An id as lowercase hex: bytes from protobuf, hex text from JSON (any case). */
function idOf(value: Uint8Array | string | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.toLowerCase();
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
}

function validId(id: string, length: number): boolean {
  return id.length === length && hexPattern.test(id) && !/^0+$/.test(id);
}

function nanosOf(value: Int64 | null | undefined): bigint {
  if (value === null || value === undefined) return 0n;
  return BigInt(typeof value === 'number' ? Math.trunc(value) : value.toString());
}

type Cut = { truncated: boolean };

function attributeValue(value: AnyValueMessage | null | undefined, cut: Cut, depth = 0): AttributeValue {
  if (!value) return null;
  if ((value.arrayValue || value.kvlistValue) && depth >= spanLimits.nestingDepth) {
    cut.truncated = true;
    return null;
  }
  if (value.stringValue !== undefined && value.stringValue !== null) {
    // An application's text is taken as it can be stored (NUL dropped, a lone surrogate replaced),
    // not refused: a span is evidence, and the rest of it matters more than one character.
    if (value.stringValue.length <= spanLimits.valueCharacters) return storableText(value.stringValue);
    cut.truncated = true;
    return storableText(value.stringValue.slice(0, spanLimits.valueCharacters));
  }
  if (value.boolValue !== undefined && value.boolValue !== null) return value.boolValue;
  if (value.intValue !== undefined && value.intValue !== null) {
    const integer = nanosOf(value.intValue);
    // Beyond 2^53 a JSON number loses digits: keep the exact text.
    return integer <= BigInt(Number.MAX_SAFE_INTEGER) && integer >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(integer)
      : integer.toString();
  }
  if (value.doubleValue !== undefined && value.doubleValue !== null) return value.doubleValue;
  if (value.arrayValue)
    return (value.arrayValue.values ?? []).map((element) => attributeValue(element, cut, depth + 1));
  if (value.kvlistValue) return attributesOf(value.kvlistValue.values, cut, depth + 1);
  if (value.bytesValue) return Buffer.from(value.bytesValue).toString('base64');
  return null;
}

function attributesOf(list: KeyValueMessage[] | null | undefined, cut: Cut, depth = 0): Attributes {
  const attributes: Attributes = {};
  for (const entry of list ?? []) {
    if (entry.key) attributes[storableText(String(entry.key))] = attributeValue(entry.value, cut, depth);
  }
  return attributes;
}

/** Why a span is refused, or undefined when it is taken. */
function refusal(
  span: SpanMessage,
  traceId: string,
  spanId: string,
  parentSpanId: string,
): string | undefined {
  if (!validId(traceId, 32)) return `trace id "${traceId}" is not 16 non-zero bytes`;
  if (!validId(spanId, 16)) return `span id "${spanId}" is not 8 non-zero bytes`;
  if (parentSpanId !== '' && !validId(parentSpanId, 16))
    return `parent span id "${parentSpanId}" is not 8 non-zero bytes`;
  const start = nanosOf(span.startTimeUnixNano);
  const end = nanosOf(span.endTimeUnixNano);
  if (start <= 0n) return 'it has no start time';
  if (end < start) return 'it ends before it starts';
  if ((span.attributes?.length ?? 0) > spanLimits.attributes)
    return `it has ${span.attributes?.length} attributes; at most ${spanLimits.attributes} are taken`;
  if ((span.events?.length ?? 0) > spanLimits.events)
    return `it has ${span.events?.length} events; at most ${spanLimits.events} are taken`;
  return undefined;
}

/**
 * The spans of an `ExportTraceServiceRequest`, decoded from protobuf or parsed from OTLP/JSON (the two
 * differ only in how ids and 64-bit integers are written). A span with a bad id, no start, an end
 * before its start or too many attributes is refused with its reason, and the rest are taken.
 */
export function receivedSpans(request: ExportTraceServiceRequestMessage): ReceivedBatch {
  const batch: ReceivedBatch = { spans: [], rejected: 0, problems: [] };
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes, { truncated: false });
    const serviceName = typeof resource['service.name'] === 'string' ? resource['service.name'] : null;
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        const traceId = idOf(span.traceId);
        const spanId = idOf(span.spanId);
        const parentSpanId = idOf(span.parentSpanId);
        const reason = refusal(span, traceId, spanId, parentSpanId);
        if (reason) {
          batch.rejected += 1;
          batch.problems.push(`span ${spanId || '(no id)'} refused: ${reason}`);
          continue;
        }
        const cut: Cut = { truncated: false };
        const attributes = attributesOf(span.attributes, cut);
        const events = (span.events ?? []).map((event) => ({
          name: storableText(String(event.name ?? '')),
          timeUnixNano: nanosOf(event.timeUnixNano),
          attributes: attributesOf(event.attributes, cut),
        }));
        let name = storableText(String(span.name ?? ''));
        if (name.length > spanLimits.nameCharacters) {
          name = name.slice(0, spanLimits.nameCharacters);
          cut.truncated = true;
        }
        if (cut.truncated) {
          attributes['lectern.truncated'] = true;
          batch.problems.push(
            `span ${spanId} taken with values cut to ${spanLimits.valueCharacters} characters and ${spanLimits.nestingDepth} levels`,
          );
        }
        batch.spans.push({
          traceId,
          spanId,
          parentSpanId: parentSpanId === '' ? null : parentSpanId,
          name,
          kind: spanKindNames[span.kind ?? 0] ?? 'UNSPECIFIED',
          startUnixNano: nanosOf(span.startTimeUnixNano),
          endUnixNano: nanosOf(span.endTimeUnixNano),
          status: spanStatusNames[span.status?.code ?? 0] ?? 'UNSET',
          statusMessage: storableText(String(span.status?.message ?? '')),
          attributes,
          events,
          serviceName,
          scopeName: scopeSpans.scope?.name ? storableText(String(scopeSpans.scope.name)) : null,
        });
      }
    }
  }
  return batch;
}
