import { createRequire } from 'node:module';

// The OTLP trace messages as protobufjs decodes them from the OpenTelemetry project's own generated
// code (`@opentelemetry/otlp-transformer`'s static module of the official .proto files, pinned at 0.216: later
// releases dropped it). Its declaration file types the root as a bare `Root`, so the decoded shapes
// the receiver reads are written here, field for field as the .proto names them.

/** A 64-bit integer as protobufjs answers it: a `Long` when the `long` package is present, else a number. */
export type Int64 = number | { toString(): string };

export type AnyValueMessage = {
  stringValue?: string | null;
  boolValue?: boolean | null;
  intValue?: Int64 | null;
  doubleValue?: number | null;
  arrayValue?: { values?: AnyValueMessage[] | null } | null;
  kvlistValue?: { values?: KeyValueMessage[] | null } | null;
  bytesValue?: Uint8Array | null;
};

export type KeyValueMessage = { key?: string | null; value?: AnyValueMessage | null };

export type SpanEventMessage = {
  timeUnixNano?: Int64 | null;
  name?: string | null;
  attributes?: KeyValueMessage[] | null;
};

export type SpanMessage = {
  traceId?: Uint8Array | string | null;
  spanId?: Uint8Array | string | null;
  parentSpanId?: Uint8Array | string | null;
  name?: string | null;
  kind?: number | null;
  startTimeUnixNano?: Int64 | null;
  endTimeUnixNano?: Int64 | null;
  attributes?: KeyValueMessage[] | null;
  events?: SpanEventMessage[] | null;
  status?: { code?: number | null; message?: string | null } | null;
};

export type ExportTraceServiceRequestMessage = {
  resourceSpans?:
    | {
        resource?: { attributes?: KeyValueMessage[] | null } | null;
        scopeSpans?: { scope?: { name?: string | null } | null; spans?: SpanMessage[] | null }[] | null;
      }[]
    | null;
};

type MessageType<Message> = {
  decode(bytes: Uint8Array): Message;
  encode(message: Message): { finish(): Uint8Array };
};

type GeneratedRoot = {
  opentelemetry: {
    proto: {
      collector: {
        trace: {
          v1: {
            ExportTraceServiceRequest: MessageType<ExportTraceServiceRequestMessage>;
            ExportTraceServiceResponse: MessageType<{
              partialSuccess?: { rejectedSpans?: number; errorMessage?: string };
            }>;
          };
        };
      };
    };
  };
};

let generated: GeneratedRoot['opentelemetry']['proto']['collector']['trace']['v1'] | undefined;

/** The generated trace service messages, loaded by the first protobuf request, not at start. */
export function traceServiceMessages() {
  if (!generated) {
    const require = createRequire(import.meta.url);
    const root = require('@opentelemetry/otlp-transformer/build/src/generated/root.js') as GeneratedRoot;
    generated = root.opentelemetry.proto.collector.trace.v1;
  }
  return generated;
}
