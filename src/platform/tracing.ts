import { randomBytes } from 'node:crypto';
import {
  type Attributes,
  type Context,
  context,
  isSpanContextValid,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
} from '@opentelemetry/api';
import { hrTimeDuration, millisToHrTime, W3CTraceContextPropagator } from '@opentelemetry/core';
import { defaultResource, type Resource } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { Logger } from 'pino';

// Lectern's own work as OpenTelemetry traces (docs/traces.md#lecterns-own-runs): a run is a root
// span with children for retrieval, the model call and each tool call. The spans are stored as the
// workspace's traces (a sink the traces feature sets), and with LECTERN_OTEL_EXPORT_ENDPOINT also
// exported over OTLP/HTTP. The provider is Lectern's own, never the global one: an application that
// embeds the client, or a test that instruments libraries, keeps its own.

/** The attribute that tells the sink whose trace a span is; it is not stored or exported. */
export const workspaceAttribute = 'lectern.workspace';

export type SpanSink = (spans: ReadableSpan[]) => Promise<void>;

/** One run's trace: its root span, and the children made under it. */
export type RunTrace = {
  /** Null when tracing is off: the run's generation then names no trace. */
  traceId: string | null;
  /** Starts a span under the root (or under `parent`); the caller ends it. */
  child(name: string, attributes?: Attributes, kind?: SpanKind, parent?: Span): Span;
  /** Runs `work` in a child span that ends with it, failed if `work` throws. */
  within<Result>(name: string, work: () => Promise<Result>, attributes?: Attributes): Promise<Result>;
  /** Names the root once the run knows what it runs. */
  describe(name: string, attributes: Attributes): void;
  /** Ends the root span: failed when given an error. */
  end(error?: unknown): void;
  /** The root's W3C `traceparent`: a job that finishes the run elsewhere joins this trace with it. */
  traceparent(): string | undefined;
};

export type RecordedCall = {
  /** The root span's name (`gateway gpt-4o-mini`). */
  name: string;
  startMs: number;
  endMs: number;
  /** The model call's attributes (GenAI conventions, and `lectern.generation`). */
  attributes: Attributes;
  traceparent?: string;
  /** The call's error, when it failed. */
  error?: string;
};

/** A logged call's trace: the model call's span, and both ended spans to store. */
export type CallTrace = { traceId: string; spanId: string; spans: ReadableSpan[] };

export type Tracing = {
  /** Starts a run's trace, joining the caller's when it sent a W3C `traceparent`. */
  startRun(workspaceId: string, traceparent?: string): RunTrace;
  /**
   * A model call made outside a run (one the gateway proxied), as a trace: a root span and the call
   * under it, with the times given, joining the caller's trace when it sent a `traceparent`. The
   * caller stores the spans with the call's record, then hands them to `exportEnded`. Null when
   * tracing is off.
   */
  recordCall(call: RecordedCall): CallTrace | null;
  /** Exports ended spans made outside the tracer (`recordCall`'s) when an export endpoint is set. */
  exportEnded(spans: ReadableSpan[]): void;
  /** Where ended spans go to be stored (the traces feature sets it once the services exist). */
  setSink(sink: SpanSink): void;
  /** Ends a span as failed with the error's message. */
  fail(span: Span, error: unknown): void;
  flush(): Promise<void>;
  close(): Promise<void>;
};

const propagator = new W3CTraceContextPropagator();

/** The context a `traceparent` header names, or the root context when there is none (or it is malformed). */
function parentContext(traceparent: string | undefined): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return propagator.extract(
    ROOT_CONTEXT,
    { traceparent },
    {
      get: (carrier, key) => carrier[key as 'traceparent'],
      keys: (carrier) => Object.keys(carrier),
    },
  );
}

function failed(span: Span, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
  span.end();
}

/**
 * Hands ended spans to the sink in batches: every `intervalMs`, or sooner when `batchSize` are
 * waiting. The run that made them never waits for their storage.
 */
function sinkProcessor(
  logger: Logger,
  options = { intervalMs: 500, batchSize: 512, maximumWaiting: 20_000 },
) {
  let sink: SpanSink | undefined;
  let waiting: ReadableSpan[] = [];
  let flushing: Promise<void> = Promise.resolve();
  const flush = () => {
    if (!sink || waiting.length === 0) return flushing;
    const batch = waiting;
    waiting = [];
    const target = sink;
    flushing = flushing.then(() =>
      target(batch).catch((error: unknown) =>
        logger.warn({ err: error, spans: batch.length }, 'could not store run spans'),
      ),
    );
    return flushing;
  };
  const timer = setInterval(() => void flush(), options.intervalMs);
  timer.unref();
  const processor: SpanProcessor = {
    onStart: () => undefined,
    onEnd(span) {
      // A sink that cannot keep up loses the oldest spans, never the service's memory.
      if (waiting.length >= options.maximumWaiting) waiting.shift();
      waiting.push(span);
      if (waiting.length >= options.batchSize) void flush();
    },
    forceFlush: () => flush(),
    async shutdown() {
      clearInterval(timer);
      await flush();
    },
  };
  return {
    processor,
    setSink(next: SpanSink) {
      sink = next;
    },
  };
}

/**
 * Sends spans as OTLP/HTTP protobuf. The collector is the operator's own setting, not tenant input,
 * so it may be a private address (a collector beside the service) and the outbound guard is not applied.
 */
function otlpExporter(url: string, send: typeof fetch, logger: Logger): SpanExporter {
  return {
    export(spans, done) {
      // The serializer (protobufjs and the generated messages) loads with the first export, not at start.
      // The package is CommonJS: its exports are the module's default in the bundle and in Node alike
      // (a named import resolves only in Node, scripts/check-lazy-imports.mjs).
      void import('@opentelemetry/otlp-transformer')
        .then(({ default: transformer }) => send(url, request(transformer.ProtobufTraceSerializer, spans)))
        .then(async (response) => {
          await response.body?.cancel();
          if (!response.ok) throw new Error(`the collector answered ${response.status}`);
          done({ code: 0 });
        })
        .catch((error: unknown) => {
          logger.warn({ err: error, url }, 'could not export run spans');
          done({ code: 1, error: error instanceof Error ? error : new Error(String(error)) });
        });
    },
    shutdown: async () => undefined,
  };
}

type Serializer = typeof import('@opentelemetry/otlp-transformer')['ProtobufTraceSerializer'];

/** The POST of an export: protobuf, each span seen through one that hides the workspace. */
function request(serializer: Serializer, spans: ReadableSpan[]): Parameters<typeof fetch>[1] {
  const body = serializer.serializeRequest(
    spans.map(
      (span) =>
        Object.create(span, { attributes: { value: withoutWorkspace(span.attributes) } }) as ReadableSpan,
    ),
  );
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-protobuf' },
    body: body ?? new Uint8Array(),
  };
}

function withoutWorkspace(attributes: Attributes): Attributes {
  if (!(workspaceAttribute in attributes)) return attributes;
  const { [workspaceAttribute]: _workspace, ...rest } = attributes;
  return rest;
}

const off: RunTrace = {
  traceId: null,
  child: () => trace.wrapSpanContext({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 }),
  within: (_name, work) => work(),
  describe: () => undefined,
  end: () => undefined,
  traceparent: () => undefined,
};

const scope = { name: 'lectern' };
let resource: Resource | undefined;

/**
 * A logged call's two spans, made as plain ended spans rather than through the SDK's tracer and
 * processors: a gateway record costs its storage and little else (docs/performance.md).
 */
function callTrace(call: RecordedCall): CallTrace {
  const ids = randomBytes(32).toString('hex');
  const sent = trace.getSpanContext(parentContext(call.traceparent));
  const caller = sent && isSpanContextValid(sent) ? sent : undefined;
  const traceId = caller?.traceId ?? ids.slice(0, 32);
  const rootId = ids.slice(32, 48);
  const callId = ids.slice(48, 64);
  const startTime = millisToHrTime(call.startMs);
  const endTime = millisToHrTime(call.endMs);
  const status = call.error
    ? { code: SpanStatusCode.ERROR, message: call.error }
    : { code: SpanStatusCode.UNSET };
  resource ??= defaultResource();
  const span = (
    spanId: string,
    parentSpanId: string | undefined,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
  ): ReadableSpan => ({
    name,
    kind,
    spanContext: () => ({ traceId, spanId, traceFlags: TraceFlags.SAMPLED }),
    parentSpanContext: parentSpanId
      ? { traceId, spanId: parentSpanId, traceFlags: TraceFlags.SAMPLED }
      : undefined,
    startTime,
    endTime,
    duration: hrTimeDuration(startTime, endTime),
    status,
    attributes,
    links: [],
    events: [],
    ended: true,
    resource: resource!,
    instrumentationScope: scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  });
  return {
    traceId,
    spanId: callId,
    spans: [
      span(rootId, caller?.spanId, call.name, SpanKind.SERVER, {}),
      span(
        callId,
        rootId,
        `chat ${call.attributes['gen_ai.request.model'] ?? ''}`.trim(),
        SpanKind.CLIENT,
        call.attributes,
      ),
    ],
  };
}

export function createTracing(options: {
  enabled: boolean;
  /** `LECTERN_OTEL_EXPORT_ENDPOINT`: a collector's base URL; `/v1/traces` is appended. */
  exportEndpoint?: string;
  fetch: typeof fetch;
  logger: Logger;
}): Tracing {
  const sink = sinkProcessor(options.logger);
  const exporter = options.exportEndpoint
    ? new BatchSpanProcessor(
        otlpExporter(
          `${options.exportEndpoint.replace(/\/+$/, '')}/v1/traces`,
          options.fetch,
          options.logger,
        ),
      )
    : undefined;
  const provider = new BasicTracerProvider({
    spanProcessors: exporter ? [sink.processor, exporter] : [sink.processor],
  });
  const tracer = provider.getTracer('lectern');

  function startRun(workspaceId: string, traceparent?: string): RunTrace {
    if (!options.enabled) return off;
    const root = tracer.startSpan(
      'run',
      { kind: SpanKind.SERVER, attributes: { [workspaceAttribute]: workspaceId } },
      parentContext(traceparent),
    );
    const rootContext = trace.setSpan(context.active(), root);
    const child = (name: string, attributes: Attributes = {}, kind = SpanKind.INTERNAL, parent?: Span) =>
      tracer.startSpan(
        name,
        { kind, attributes: { ...attributes, [workspaceAttribute]: workspaceId } },
        parent ? trace.setSpan(rootContext, parent) : rootContext,
      );
    let ended = false;
    return {
      traceId: root.spanContext().traceId,
      child,
      async within(name, work, attributes) {
        const span = child(name, attributes);
        try {
          const result = await work();
          span.end();
          return result;
        } catch (error) {
          failed(span, error);
          throw error;
        }
      },
      describe(name, attributes) {
        root.updateName(name);
        root.setAttributes(attributes);
      },
      traceparent() {
        const { traceId, spanId } = root.spanContext();
        return `00-${traceId}-${spanId}-01`;
      },
      end(error) {
        if (ended) return;
        ended = true;
        if (error === undefined) root.end();
        else failed(root, error);
      },
    };
  }

  function recordCall(call: RecordedCall): CallTrace | null {
    return options.enabled ? callTrace(call) : null;
  }

  /** Exported as the SDK exports a run's spans, once the caller has stored them. */
  function exportEnded(spans: ReadableSpan[]): void {
    if (exporter) for (const span of spans) exporter.onEnd(span);
  }

  return {
    startRun,
    recordCall,
    exportEnded,
    setSink: sink.setSink,
    fail: failed,
    flush: () => provider.forceFlush(),
    close: () => provider.shutdown(),
  };
}
