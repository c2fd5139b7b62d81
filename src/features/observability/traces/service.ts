import { randomUUID } from 'node:crypto';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { GenerationCost } from '../../../core/json-columns.js';
import type { Page, Pagination } from '../../../core/pagination.js';
import { NotFoundError } from '../../../errors.js';
import { asBulkWork } from '../../../platform/database/bulk-work.js';
import type { NamedStatement } from '../../../platform/database/statements.js';
import type { Tracing } from '../../../platform/tracing.js';
import type { LoggedCall, TracedGeneration } from '../../runtime/generations/index.js';
import { type LoggedCallTraces, recordedCall } from './gateway-spans.js';
import { lecternMarks, sessionOf, type TracedCall, tracedCall } from './genai-mapping.js';
import { createIngestTurns } from './ingest-turns.js';
import { ownCalls, ownGeneration, ownSpansByWorkspace, receivedOf } from './own-spans.js';
import type { ReceivedBatch, ReceivedSpan } from './received-spans.js';
import {
  type NewSpan,
  type SpanRow,
  type SpanToStore,
  spanWrites,
  type TraceFilter,
  type TraceRepository,
  type TraceRow,
} from './repository.js';
import { acceptedDays, dayOf } from './span-partitions.js';

export type TraceDependencies = {
  repository: TraceRepository;
  /** Makes the gateway's logged calls into ended spans, and exports them once stored. */
  tracing: Pick<Tracing, 'recordCall' | 'exportEnded'>;
  /** The Action a `lectern.action` names (a GUID or slug) in the workspace, if there is one. */
  findAction(workspaceId: string, guidOrSlug: string): Promise<{ guid: string } | undefined>;
  /** The insert of model-call spans' generations, sent with the spans (one already stored is left as it is). */
  generationsInsert(rows: TracedGeneration[]): NamedStatement;
  /** Told once they are stored (the dashboard's days). */
  generationsStored(rows: TracedGeneration[]): Promise<void>;
  /** Gives stored traced generations that have no Action yet the prompt version a span above them names. */
  attachGenerations(
    workspaceId: string,
    attachments: { id: string; actionId: string; version: number | null }[],
  ): Promise<void>;
  /** The price of a traced call, when its model's price is known. */
  priceOf(
    provider: string | null,
    model: string,
    usage: { inputTokens: number; outputTokens: number },
  ): Promise<GenerationCost | undefined>;
  retentionDays: number;
  now?: () => Date;
};

export type IngestAnswer = { rejected: number; message: string };

/**
 * Where a batch of spans comes from: an application's OpenTelemetry exporter (`otlp`), Lectern's own
 * runs (`own`) or the calls its gateway logged (`gateway`). One pipeline stores them all; the source
 * decides only what their model calls are (`prepare`).
 */
export type SpanSource = 'otlp' | 'own' | 'gateway';

/** A batch ready to store: each span as stored, the generations its model calls become, the traces to settle after. */
type PreparedBatch = {
  spans: SpanToStore[];
  generations: TracedGeneration[];
  /** Traces whose calls may take an Action from a marked ancestor once the batch is in. */
  unsettledTraces: string[];
};

/** Spans a statement stores: a slice of a batch, short enough for others' statements to go between. */
const spansPerStatement = 64;

export type TraceWithSpans = { trace: TraceRow; spans: SpanRow[] };

/** Ancestors of a span, nearest first, as far as `bySpanId` knows them. */
function ancestorsOf(span: ReceivedSpan, bySpanId: Map<string, ReceivedSpan>): ReceivedSpan[] {
  const ancestors: ReceivedSpan[] = [];
  const seen = new Set<string>([span.spanId]);
  for (let parent = span.parentSpanId; parent !== null && !seen.has(parent); ) {
    const found = bySpanId.get(parent);
    if (!found) break;
    ancestors.push(found);
    seen.add(parent);
    parent = found.parentSpanId;
  }
  return ancestors;
}

export function createTraceService(dependencies: TraceDependencies) {
  const { repository } = dependencies;
  const now = dependencies.now ?? (() => new Date());
  // Two batches stored at once per process, 64 waiting (by workspace, in turn), then 429.
  const turns = createIngestTurns({ concurrent: 2, waiting: 64 });
  /** Day partitions this process made or saw: most batches need no DDL at all. */
  const knownDays = new Set<number>();

  async function ensureDays(days: Iterable<number>) {
    const missing = [...new Set(days)].filter((day) => !knownDays.has(day));
    if (missing.length === 0) return;
    await repository.ensurePartitions(missing);
    for (const day of missing) knownDays.add(day);
  }

  /** The model calls of a batch, with what each generation needs. */
  async function modelCalls(workspaceId: string, spans: ReceivedSpan[]) {
    const keyed = new Map(spans.map((span) => [span.spanId, span]));
    const calls = spans.flatMap((span) => {
      const call = tracedCall(span, ancestorsOf(span, keyed));
      return call ? [{ span, call }] : [];
    });
    const actionOf = actionFinder(workspaceId);
    return Promise.all(
      calls.map(async ({ span, call }) => ({
        span,
        call,
        generationId: randomUUID(),
        actionId: call.action ? await actionOf(call.action) : null,
        cost: await priced(call),
      })),
    );
  }

  /** Finds Actions by GUID or slug, each name once per batch. */
  function actionFinder(workspaceId: string) {
    const found = new Map<string, Promise<string | null>>();
    return (guidOrSlug: string) => {
      let action = found.get(guidOrSlug);
      if (!action) {
        action = dependencies.findAction(workspaceId, guidOrSlug).then((each) => each?.guid ?? null);
        found.set(guidOrSlug, action);
      }
      return action;
    };
  }

  /**
   * Spans of a trace arrive in any order: a model call may be stored before the span around it that
   * names its prompt version (an exporter sends a parent when it ends, after its children). Once a
   * batch is in, each stored call of its traces without an Action takes its nearest marked ancestor's.
   */
  async function attachToMarkedAncestors(workspaceId: string, traceIds: string[]) {
    const links = await repository.spanLinks(workspaceId, traceIds);
    const bySpanId = new Map(links.map((link) => [link.spanId, link]));
    const actionOf = actionFinder(workspaceId);
    const attachments: { id: string; actionId: string; version: number | null }[] = [];
    for (const link of links) {
      if (!link.generationId) continue;
      const seen = new Set<string>();
      let marked: typeof link | undefined = link;
      while (marked && !marked.action && !seen.has(marked.spanId)) {
        seen.add(marked.spanId);
        marked = marked.parentSpanId === null ? undefined : bySpanId.get(marked.parentSpanId);
      }
      if (!marked?.action) continue;
      const actionId = await actionOf(marked.action);
      const version = marked.version === null ? null : Number.parseInt(marked.version, 10);
      if (actionId)
        attachments.push({
          id: link.generationId,
          actionId,
          version: Number.isFinite(version) ? version : null,
        });
    }
    await dependencies.attachGenerations(workspaceId, attachments);
  }

  async function priced(call: TracedCall) {
    if (!call.model || (call.inputTokens === null && call.outputTokens === null)) return undefined;
    return dependencies.priceOf(call.provider, call.model, {
      inputTokens: call.inputTokens ?? 0,
      outputTokens: call.outputTokens ?? 0,
    });
  }

  const service = {
    /** Stores a batch an application's exporter sent (OTLP). */
    ingest(workspaceId: string, batch: ReceivedBatch): Promise<IngestAnswer> {
      return receive(workspaceId, batch, 'otlp');
    },

    /**
     * The gateway's logged calls as traces (a root span and the model call under it, each with the
     * call's times, joining the caller's trace when it sent a `traceparent`): the statements that
     * store them, for the caller to send with the generations' insert (one statement, one commit, and
     * no turn of their own: the logged batch is the request's own work), and what to do once stored.
     */
    async loggedCallTraces(workspaceId: string, calls: LoggedCall[]): Promise<LoggedCallTraces> {
      const traced = calls.flatMap((call) => {
        const trace = dependencies.tracing.recordCall(recordedCall(call));
        return trace ? [{ generationId: call.generationId, trace }] : [];
      });
      const ended = traced.flatMap(({ trace }) => trace.spans);
      const received = ended.map((span) => receivedOf(span));
      await ensureDays(received.map((span) => dayOf(span.startUnixNano)));
      const prepared = await prepare(workspaceId, received, 'gateway');
      return {
        spanOf: new Map(traced.map(({ generationId, trace }) => [generationId, trace])),
        statements: received.length === 0 ? [] : spanWrites(workspaceId, prepared.spans),
        stored: () => dependencies.tracing.exportEnded(ended),
      };
    },

    /** Stores the ended spans of Lectern's own runs, each in the workspace that ran it. */
    async recordOwn(spans: ReadableSpan[]): Promise<void> {
      for (const [workspaceId, received] of ownSpansByWorkspace(spans))
        await receive(workspaceId, { spans: received, rejected: 0, problems: [] }, 'own');
    },

    async list(workspaceId: string, filter: TraceFilter, pagination: Pagination): Promise<Page<TraceRow>> {
      const { rows, total } = await repository.listTraces(
        workspaceId,
        filter,
        pagination.skip,
        pagination.limit,
      );
      return { rows, total };
    },

    async get(workspaceId: string, traceId: string): Promise<TraceWithSpans> {
      const trace = await repository.findTrace(workspaceId, traceId.toLowerCase());
      if (!trace) throw new NotFoundError('Trace not found');
      return { trace, spans: await repository.spansOf(workspaceId, trace.traceId) };
    },

    /** Drops the days of spans older than the retention and their traces. */
    async removeExpired(): Promise<{ days: number; traces: number }> {
      const { first } = acceptedDays(now(), dependencies.retentionDays);
      const expired = (await repository.partitionDays()).filter((day) => day < first);
      for (const day of expired) {
        await repository.dropPartition(day);
        knownDays.delete(day);
      }
      const removed = await repository.deleteTracesBefore(BigInt(first) * 86_400_000_000_000n);
      return { days: expired.length, traces: removed };
    },
  };
  return service;

  /**
   * Stores a batch: its spans, a generation for each model call, and each trace's totals, sliced
   * into statements that are each whole, so what the answer acknowledges is stored and nothing is
   * half stored. Its statements are bulk work: on the embedded database they wait behind
   * interactive requests'.
   */
  async function receive(
    workspaceId: string,
    batch: ReceivedBatch,
    source: SpanSource,
  ): Promise<IngestAnswer> {
    const window = acceptedDays(now(), dependencies.retentionDays);
    const problems = [...batch.problems];
    let rejected = batch.rejected;
    const accepted = batch.spans.filter((span) => {
      const day = dayOf(span.startUnixNano);
      if (day >= window.first && day <= window.last) return true;
      rejected += 1;
      problems.push(
        `span ${span.spanId} refused: it starts ${day < window.first ? `before the ${dependencies.retentionDays} days traces are kept` : 'more than a day from now'}`,
      );
      return false;
    });
    if (accepted.length > 0) {
      await turns.take(workspaceId, () =>
        asBulkWork(async () => {
          await ensureDays(accepted.map((span) => dayOf(span.startUnixNano)));
          await store(workspaceId, accepted, await prepare(workspaceId, accepted, source));
        }),
      );
    }
    return {
      rejected,
      message:
        problems.slice(0, 20).join('; ') +
        (problems.length > 20 ? ` (and ${problems.length - 20} more)` : ''),
    };
  }

  /**
   * A batch as it is stored. The source decides what its model calls are: an application's (`otlp`)
   * become new generations, priced, with the Action their span or an ancestor names; Lectern's own
   * runs' and the gateway's name the generation already stored or stored beside them
   * (`lectern.generation`), and nothing an application sends can name one that way.
   */
  async function prepare(
    workspaceId: string,
    spans: ReceivedSpan[],
    source: SpanSource,
  ): Promise<PreparedBatch> {
    if (source !== 'otlp') {
      const totals = totalsOf(ownCalls(spans));
      return {
        spans: spans.map((span) => spanToStore(workspaceId, span, ownGeneration(span), totals)),
        generations: [],
        unsettledTraces: [],
      };
    }
    const calls = await modelCalls(workspaceId, spans);
    const generationOf = new Map(calls.map((entry) => [`${entry.span.traceId}/${entry.span.spanId}`, entry]));
    const totals = totalsOf(calls);
    const generations = calls.map(({ span, call, generationId, actionId, cost }) => ({
      id: generationId,
      workspaceId,
      actionId,
      traceId: span.traceId,
      spanId: span.spanId,
      input: { messages: call.input },
      output: call.output,
      fullPromptSent: call.input,
      model: call.model,
      modelProvider: call.provider,
      numInputTokens: call.inputTokens,
      numOutputTokens: call.outputTokens,
      latencyMs: Number((span.endUnixNano - span.startUnixNano) / 1_000_000n),
      cost: cost ?? null,
      version: actionId ? call.version : null,
      metadata: {
        ...(span.serviceName && { service_name: span.serviceName }),
        ...(call.session && { session_id: call.session }),
        ...(call.error && { error: call.error }),
        ...(call.action && !actionId && { unknown_action: call.action }),
      },
      createdAt: new Date(Number(span.startUnixNano / 1_000_000n)),
    }));
    // The stored tree is read only where it can tell more than the batch did: a trace whose batch
    // names a prompt version (calls stored earlier may sit under it), or one whose unnamed call has
    // an ancestor outside the batch (it may have come earlier). A whole trace in one batch needs none.
    // Every span of the batch counts, not only the new ones: attaching is idempotent, and a batch
    // sent again after a stop between its statement and the attach gets it done.
    const byId = new Map(spans.map((each) => [each.spanId, each]));
    const reachesOutside = (span: ReceivedSpan) => {
      for (let parent = span.parentSpanId, steps = 0; parent !== null && steps < 1_000; steps += 1) {
        const found = byId.get(parent);
        if (!found) return true;
        parent = found.parentSpanId;
      }
      return false;
    };
    const unsettled = [
      ...spans.filter((span) => lecternMarks(span.attributes).action !== null),
      ...calls
        .filter((entry) => entry.actionId === null && reachesOutside(entry.span))
        .map((entry) => entry.span),
    ];
    return {
      spans: spans.map((span) =>
        spanToStore(
          workspaceId,
          span,
          generationOf.get(`${span.traceId}/${span.spanId}`)?.generationId ?? null,
          totals,
        ),
      ),
      generations,
      unsettledTraces: [...new Set(unsettled.map((span) => span.traceId))],
    };
  }

  async function store(
    workspaceId: string,
    accepted: ReceivedSpan[],
    prepared: PreparedBatch,
  ): Promise<void> {
    const generationOfSpan = new Map(
      prepared.generations.map((row) => [`${row.traceId}/${row.spanId}`, row]),
    );
    // A statement a slice of spans: the spans, their model calls' generations and what the new spans
    // add to their traces. Each slice is whole on its own, so a stop between two leaves the batch's
    // first slices stored and counted, and the exporter's retry stores the rest (a span sent again is
    // counted once, its generation stored once). Between slices, other requests' statements take
    // their turns on the embedded database: one statement of a whole 512-span batch held it ~4 times
    // as long, and beside CPU burners another workspace's runs waited for it (docs/performance.md).
    const inserted: { traceId: string; spanId: string }[] = [];
    for (let start = 0; start < accepted.length; start += spansPerStatement) {
      const slice = prepared.spans.slice(start, start + spansPerStatement);
      const sliceGenerations = slice.flatMap((span) => {
        const row = generationOfSpan.get(`${span.traceId}/${span.spanId}`);
        return row ? [row] : [];
      });
      inserted.push(
        ...(await repository.storeSpans(
          workspaceId,
          slice,
          sliceGenerations.length > 0 ? [dependencies.generationsInsert(sliceGenerations)] : [],
        )),
      );
    }
    const isNew = new Set(inserted.map((row) => `${row.traceId}/${row.spanId}`));
    await dependencies.generationsStored(
      prepared.generations.filter((row) => isNew.has(`${row.traceId}/${row.spanId}`)),
    );
    if (prepared.unsettledTraces.length > 0)
      await attachToMarkedAncestors(workspaceId, prepared.unsettledTraces);
  }
}

function spanRow(workspaceId: string, span: ReceivedSpan, generationId: string | null): NewSpan {
  return {
    workspaceId,
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId,
    name: span.name,
    kind: span.kind,
    startUnixNano: span.startUnixNano,
    endUnixNano: span.endUnixNano,
    status: span.status,
    statusMessage: span.statusMessage,
    attributes: span.attributes,
    events: span.events.map((event) => ({ ...event, timeUnixNano: event.timeUnixNano.toString() })),
    serviceName: span.serviceName,
    scopeName: span.scopeName,
    generationId,
  };
}

/** What each model-call span adds to its trace's totals when it is new: tokens and price, by span. */
type CallTotals = Map<string, { inputTokens: number; outputTokens: number; cost: number }>;

function totalsOf(
  calls: { span: ReceivedSpan; call: TracedCall; cost: GenerationCost | undefined }[],
): CallTotals {
  return new Map(
    calls.map(({ span, call, cost }) => [
      `${span.traceId}/${span.spanId}`,
      {
        inputTokens: call.inputTokens ?? 0,
        outputTokens: call.outputTokens ?? 0,
        cost: cost?.generation ?? 0,
      },
    ]),
  );
}

function spanToStore(
  workspaceId: string,
  span: ReceivedSpan,
  generationId: string | null,
  totals: CallTotals,
): SpanToStore {
  const total = totals.get(`${span.traceId}/${span.spanId}`);
  return {
    ...spanRow(workspaceId, span, generationId),
    session: sessionOf(span),
    inputTokens: total?.inputTokens ?? 0,
    outputTokens: total?.outputTokens ?? 0,
    cost: total?.cost ?? 0,
  };
}

export type TraceService = ReturnType<typeof createTraceService>;
