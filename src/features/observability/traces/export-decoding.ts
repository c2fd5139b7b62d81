import { parseJsonText } from '../../../platform/payloads/json-text.js';
import { type ExportTraceServiceRequestMessage, traceServiceMessages } from './otlp-messages.js';
import { type ReceivedBatch, receivedSpans } from './received-spans.js';

/** Why an export's body was refused: each is a `400` with this code (routes.ts). */
export type ExportRefusal = {
  code: 'invalid_protobuf' | 'invalid_json' | 'invalid_resource_spans';
  message: string;
};

export type DecodedExport = { batch: ReceivedBatch } | { refusal: ExportRefusal };

/**
 * OTLP/JSON nested deeper than this is malformed: a span with its attributes is about 10 levels, and
 * values past 16 levels are cut anyway (received-spans.ts); reading deeper costs stack, not meaning.
 */
const jsonNestingLimit = 8_192;

/** Whether a parsed JSON value nests deeper than `limit`, walked without recursion. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const waiting: [unknown, number][] = [[value, 0]];
  for (let next = waiting.pop(); next; next = waiting.pop()) {
    const [each, depth] = next;
    if (typeof each !== 'object' || each === null) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(each) ? each : Object.values(each)) waiting.push([child, depth + 1]);
  }
  return false;
}

/**
 * The spans of an `ExportTraceServiceRequest` body, decoded from protobuf or parsed from OTLP/JSON,
 * checked and flattened (received-spans.ts). Pure: it runs on the request thread for a small body and
 * on the export decoder's worker thread for a large one (export-decoder.ts).
 */
export function decodeExport(bytes: Uint8Array, protobuf: boolean): DecodedExport {
  if (bytes.length === 0) return { batch: receivedSpans({}) };
  let request: ExportTraceServiceRequestMessage;
  if (protobuf) {
    try {
      request = traceServiceMessages().ExportTraceServiceRequest.decode(bytes);
    } catch (error) {
      return {
        refusal: {
          code: 'invalid_protobuf',
          message: `The body is not an ExportTraceServiceRequest: ${(error as Error).message}`,
        },
      };
    }
  } else {
    let parsed: unknown;
    try {
      parsed = parseJsonText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    } catch (error) {
      if (!(error instanceof SyntaxError) && !(error instanceof RangeError)) throw error;
      return { refusal: { code: 'invalid_json', message: 'Malformed JSON body' } };
    }
    if (nestsDeeperThan(parsed, jsonNestingLimit))
      return {
        refusal: {
          code: 'invalid_json',
          message: `The JSON is nested deeper than ${jsonNestingLimit} levels`,
        },
      };
    const resourceSpans = (parsed as { resourceSpans?: unknown } | null)?.resourceSpans;
    if (
      typeof parsed !== 'object' ||
      parsed === null ||
      (resourceSpans !== undefined && !Array.isArray(resourceSpans))
    )
      return { refusal: { code: 'invalid_resource_spans', message: 'must be a list of ResourceSpans' } };
    request = parsed as ExportTraceServiceRequestMessage;
  }
  return { batch: receivedSpans(request) };
}
