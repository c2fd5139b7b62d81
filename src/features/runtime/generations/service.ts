import { randomUUID } from 'node:crypto';
import { givenFields } from '../../../core/defined.js';
import type { GenerationCost, PromptMessage } from '../../../core/json-columns.js';
import type { Page, Pagination } from '../../../core/pagination.js';
import { NotFoundError, ValidationError } from '../../../errors.js';
import type { NamedStatement } from '../../../platform/database/statements.js';
import { storableText } from '../../../platform/storable-text.js';
import type { Feedback, FeedbackService } from '../feedback/index.js';
import type { GenerationFilter, GenerationRepository, GenerationRow, NewGeneration } from './repository.js';

/** What the data service needs to know about its owners, without depending on their services. */
export type GenerationOwners = {
  requireApp(workspaceId: string, appId: string): Promise<unknown>;
  requireAction(workspaceId: string, actionId: string): Promise<unknown>;
  /** The session must exist and, when an Action is named, belong to it. */
  requireSession(workspaceId: string, sessionId: string, actionId?: string): Promise<unknown>;
  /** The Action must have saved this version. */
  requireVersion(workspaceId: string, actionId: string, version: number): Promise<unknown>;
};

/** The price of a model call made elsewhere, by its provider (or its model's name alone); undefined when unknown. */
export type CallPricer = (
  provider: string | null,
  modelName: string,
  usage: { inputTokens: number; outputTokens: number },
) => Promise<GenerationCost | undefined>;

/** A model call the gateway proxied and logged, as its trace tells it. */
export type LoggedCall = {
  generationId: string;
  model: string | null;
  modelProvider: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  latencyMs: number | null;
  actionId: string | null;
  version: number | null;
  cost: GenerationCost | null;
  /** The caller's W3C trace context, which the call's trace joins. */
  traceparent?: string;
  error?: string;
};

/**
 * How logged gateway calls become traces (the traces feature makes and stores them): the span each
 * generation names, the statements that store the traces, sent with the generations' insert as one
 * statement, and what to do once they are stored.
 */
export type LoggedCallTracer = (
  workspaceId: string,
  calls: LoggedCall[],
) => Promise<{
  spanOf: Map<string, { traceId: string; spanId: string }>;
  statements: NamedStatement[];
  stored(): void;
}>;

const untraced: LoggedCallTracer = async () => ({
  spanOf: new Map(),
  statements: [],
  stored: () => undefined,
});

/**
 * A generation's fields as a client logs or changes them (`POST /v1/data`, `PUT /v1/data/{guid}`):
 * a field left out sets nothing. `promptSent` may be a string, one user message; `systemMessage`
 * becomes the prompt's first message.
 */
export type LoggedFields = {
  input?: unknown;
  output?: string;
  promptSent?: PromptMessage[] | string | null;
  systemMessage?: string | null;
  numInputTokens?: number | null;
  numOutputTokens?: number | null;
  model?: string | null;
  modelProvider?: string | null;
  latencyMs?: number | null;
  extUserId?: string | null;
  metadata?: Record<string, unknown> | null;
  source?: string;
};

/** A generation made elsewhere, logged to an Action (and a session of it, and a version of it). */
export type LoggedGeneration = LoggedFields & {
  actionId: string;
  sessionId?: string | null;
  version?: number | null;
  environment?: string | null;
  input: unknown;
  output: string;
};

/** A change to a stored generation; its Action and session may only be named unchanged. */
export type GenerationChanges = LoggedFields & { actionId?: string; sessionId?: string | null };

/** The prompt sent, with the official SDK's separate `system_message` as its first message. */
function promptSent(messages: PromptMessage[] | string, systemMessage: string | null | undefined) {
  const sent: PromptMessage[] =
    typeof messages === 'string' ? [{ role: 'user', content: messages }] : messages;
  if (!systemMessage) return sent;
  const rest = sent[0]?.role === 'system' ? sent.slice(1) : sent;
  return [{ role: 'system', content: systemMessage }, ...rest];
}

/** The columns a logged or updated generation's fields set; fields not given set nothing. */
function loggedColumns(fields: LoggedFields, storedPrompt: PromptMessage[] = []): Partial<NewGeneration> {
  const { promptSent: sent, systemMessage, metadata, ...columns } = fields;
  return {
    ...givenFields(columns),
    ...((sent !== undefined || systemMessage !== undefined) && {
      fullPromptSent: promptSent(sent ?? storedPrompt, systemMessage),
    }),
    ...(metadata !== undefined && { metadata: metadata ?? {} }),
  };
}

/** A stored generation: a run's or a logged prompt and answer, with its model, tokens, cost and latency. */
export type Generation = GenerationRow;

/**
 * How a run was asked for; recorded as the generation's `source`. `evaluation` runs (an evaluator's
 * judge) stay out of the Dashboard's production figures; `mcp` runs are an agent's tool calls.
 */
export type RunSource =
  | 'sync'
  | 'stream'
  | 'async'
  | 'experiment'
  | 'workflow'
  | 'skill'
  | 'evaluation'
  | 'mcp';

/** A finished run as the run engine reports it; the data service decides how it is stored. */
export type RunRecord = {
  generationId: string;
  /** The run's trace and its model-call span; null when runs are not traced. */
  trace: { traceId: string; spanId: string } | null;
  workspaceId: string;
  /** `version` is null for a draft run (docs/api.md#runs). */
  action: { id: string; environment: string | null; version: number | null };
  sessionId: string | null;
  experimentId: string | null;
  request: { input: unknown; extUserId: string | null; metadata: Record<string, unknown> };
  prompt: { messages: PromptMessage[]; turn: PromptMessage[] };
  model: { name: string; provider: string };
  output: string;
  usage: { inputTokens: number | null; outputTokens: number | null };
  cost: GenerationCost | null;
  latencyMs: number;
  /** Answered from the cache of an earlier identical run, without a provider call. */
  cached: boolean;
  source: RunSource;
  cacheKey: string | null;
};

/** A run whose model call failed, counted for the dashboard's errors (it is not a generation). */
export type RunFailureRecord = {
  workspaceId: string;
  action: { id: string; environment: string | null; version: number | null };
  model: { name: string; provider: string };
  source: RunSource;
  message: string;
};

export interface GenerationService {
  /** Stores a finished run; every run mode ends here. */
  recordRun(run: RunRecord): Promise<void>;
  /** Counts a run that failed at the model call. */
  recordFailure(failure: RunFailureRecord): Promise<void>;
  /**
   * The insert of model calls traced over OpenTelemetry (`source: "otel"`), dated by their spans,
   * for the traces feature to send with the spans (one statement); a span stored before is left as
   * it is. Once it is stored, `tracedStored` tells the dashboard.
   */
  tracedInsert(rows: TracedGeneration[]): NamedStatement;
  /** Traced calls were stored: a call dated on a finished day makes that day's rollup stale. */
  tracedStored(rows: TracedGeneration[]): Promise<void>;
  /** Gives traced generations without an Action the prompt version a span above them names. */
  attachTraced(
    workspaceId: string,
    attachments: { id: string; actionId: string; version: number | null }[],
  ): Promise<void>;
  find(workspaceId: string, id: string): Promise<Generation | undefined>;
  /**
   * The record with its non-deleted feedback and its monitors' scores by evaluator GUID
   * (docs/evaluations.md#monitors), or 404.
   */
  get(
    workspaceId: string,
    id: string,
  ): Promise<{ generation: Generation; feedback: Feedback[]; scores: Record<string, number | null> }>;
  log(workspaceId: string, input: LoggedGeneration): Promise<Generation>;
  /** Every record is checked first and all are stored in one statement, or none; answers their GUIDs. */
  logMany(workspaceId: string, inputs: LoggedGeneration[]): Promise<string[]>;
  /** `PUT /v1/data/{guid}`: the given fields replace the stored ones. */
  update(workspaceId: string, id: string, changes: GenerationChanges): Promise<Generation>;
  /** Deletes a generation with its feedback; answers the record as it was. */
  remove(workspaceId: string, id: string): Promise<Generation>;
  listForAction(workspaceId: string, actionId: string, pagination: Pagination): Promise<Page<Generation>>;
  /** Every generation of the workspace that matches the filter, newest first (the console's log view). */
  search(
    workspaceId: string,
    filter: GenerationFilter,
    pagination: Pagination,
  ): Promise<Page<Generation & { feedbackCount: number }>>;
  /** The same set as `search`, read in batches for an export of any size. */
  scan(workspaceId: string, filter: GenerationFilter): AsyncIterable<Generation>;
  /** Generations of an App's Actions, newest first. */
  listForApp(workspaceId: string, appId: string, pagination: Pagination): Promise<Page<Generation>>;
  listForSession(workspaceId: string, sessionId: string, pagination: Pagination): Promise<Page<Generation>>;
  /** The session's latest turns as messages to replay before a new one, oldest first. */
  sessionHistory(workspaceId: string, sessionId: string): Promise<PromptMessage[]>;
  /** The newest answer a provider gave for this cache key. */
  findByCacheKey(workspaceId: string, cacheKey: string): Promise<Generation | undefined>;
}

/** A model call from a span: what the traces feature read from it, with the span's start as its date. */
export type TracedGeneration = Omit<NewGeneration, 'source' | 'createdAt'> & { createdAt: Date };

function runRow(run: RunRecord): NewGeneration {
  return {
    id: run.generationId,
    workspaceId: run.workspaceId,
    actionId: run.action.id,
    traceId: run.trace?.traceId ?? null,
    spanId: run.trace?.spanId ?? null,
    sessionId: run.sessionId,
    experimentId: run.experimentId,
    input: run.request.input,
    output: run.output,
    fullPromptSent: run.prompt.messages,
    turnMessages: run.prompt.turn,
    model: run.model.name,
    modelProvider: run.model.provider,
    numInputTokens: run.usage.inputTokens,
    numOutputTokens: run.usage.outputTokens,
    latencyMs: run.latencyMs,
    cost: run.cost,
    environment: run.action.environment,
    version: run.action.version,
    extUserId: run.request.extUserId,
    metadata: run.request.metadata,
    source: run.source,
    cached: run.cached,
    cacheKey: run.cacheKey,
  };
}

export function createGenerationService(dependencies: {
  repository: GenerationRepository;
  feedback: Pick<FeedbackService, 'listForGenerations'>;
  owners: GenerationOwners;
  /** Told after a stored generation is edited or deleted: its day's dashboard rollup is stale. */
  changed: (workspaceId: string, createdAt: Date) => Promise<void>;
  /** Prices a logged call that names its model and tokens (llm/prices.ts). */
  priceOf?: CallPricer;
  /** Makes each logged gateway interaction a trace, stored with its generation. */
  loggedTraces?: LoggedCallTracer;
}): GenerationService {
  const {
    repository,
    feedback,
    owners,
    changed,
    priceOf = async () => undefined,
    loggedTraces = untraced,
  } = dependencies;
  /** A generation made elsewhere, checked against the workspace (`prefix` names the record in a batch). */
  async function loggedRow(
    workspaceId: string,
    { actionId, sessionId, version, environment, ...fields }: LoggedGeneration,
    prefix = '',
    /** The Action versions a batch has checked already (`action:version`): each is read once. */
    knownVersions = new Set<string>(),
  ): Promise<NewGeneration> {
    if (!prefix) await owners.requireAction(workspaceId, actionId);
    if (sessionId) {
      await owners.requireSession(workspaceId, sessionId, actionId).catch((error: unknown) => {
        if (error instanceof NotFoundError) throw new ValidationError(`${prefix}session`, 'no such session');
        throw error;
      });
    }
    if (version && !knownVersions.has(`${actionId}:${version}`)) {
      await owners.requireVersion(workspaceId, actionId, version).catch((error: unknown) => {
        if (error instanceof NotFoundError)
          throw new ValidationError(`${prefix}version`, `the Action has no version ${version}`);
        throw error;
      });
      knownVersions.add(`${actionId}:${version}`);
    }
    return {
      fullPromptSent: [],
      source: 'api',
      ...loggedColumns(fields),
      id: randomUUID(),
      workspaceId,
      actionId,
      sessionId: sessionId ?? null,
      version: version ?? null,
      environment: environment ?? null,
      cost: (await loggedCost(fields)) ?? null,
      output: fields.output,
    };
  }

  /** A logged call's price from its model and tokens, as a run's is priced; none when either is missing. */
  function loggedCost(fields: LoggedFields): Promise<GenerationCost | undefined> {
    const { model, numInputTokens, numOutputTokens, modelProvider } = fields;
    if (!model || numInputTokens == null || numOutputTokens == null) return Promise.resolve(undefined);
    return priceOf(modelProvider ?? null, model, {
      inputTokens: numInputTokens,
      outputTokens: numOutputTokens,
    });
  }

  /** A proxied interaction as its trace tells it. */
  function loggedCall(row: NewGeneration): LoggedCall {
    const metadata = row.metadata ?? {};
    return {
      generationId: row.id,
      model: row.model ?? null,
      modelProvider: row.modelProvider ?? null,
      inputTokens: row.numInputTokens ?? null,
      outputTokens: row.numOutputTokens ?? null,
      latencyMs: row.latencyMs ?? null,
      actionId: row.actionId ?? null,
      version: row.version ?? null,
      cost: row.cost ?? null,
      traceparent: typeof metadata.traceparent === 'string' ? metadata.traceparent : undefined,
      error: typeof metadata.error === 'string' ? metadata.error : undefined,
    };
  }

  return {
    async recordRun(run) {
      await repository.insert(runRow(run));
    },

    async recordFailure(failure) {
      await repository.insertFailure({
        id: randomUUID(),
        workspaceId: failure.workspaceId,
        actionId: failure.action.id,
        version: failure.action.version,
        environment: failure.action.environment,
        source: failure.source,
        modelProvider: failure.model.provider,
        model: failure.model.name,
        message: storableText(failure.message.slice(0, 2_000)),
      });
    },

    find: (workspaceId, id) => repository.find(workspaceId, id),

    async get(workspaceId, id) {
      const generation = await repository.find(workspaceId, id);
      if (!generation) throw new NotFoundError('Data not found');
      const [feedbackOfIt, scores] = await Promise.all([
        feedback.listForGenerations(workspaceId, [id]),
        repository.scores(id),
      ]);
      return { generation, feedback: feedbackOfIt, scores };
    },

    tracedInsert: (rows) => repository.tracedInsert(rows.map((row) => ({ ...row, source: 'otel' }))),

    async tracedStored(rows) {
      const days = new Map(
        rows.map((row) => [`${row.workspaceId}/${row.createdAt.toISOString().slice(0, 10)}`, row]),
      );
      for (const row of days.values()) await changed(row.workspaceId, row.createdAt);
    },

    async attachTraced(workspaceId, attachments) {
      if (attachments.length === 0) return;
      const changedAt = await repository.attachTraced(workspaceId, attachments);
      const days = new Map(changedAt.map((createdAt) => [createdAt.toISOString().slice(0, 10), createdAt]));
      for (const createdAt of days.values()) await changed(workspaceId, createdAt);
    },

    async log(workspaceId, input) {
      const row = await loggedRow(workspaceId, input);
      await repository.insert(row);
      return (await repository.find(workspaceId, row.id))!;
    },

    // The gateway ships its log this way. An Action the key cannot see is a 400 naming the record.
    async logMany(workspaceId, inputs) {
      const knownActions = new Set<string>();
      const knownVersions = new Set<string>();
      const rows: NewGeneration[] = [];
      for (const [index, input] of inputs.entries()) {
        if (!knownActions.has(input.actionId)) {
          await owners.requireAction(workspaceId, input.actionId).catch((error: unknown) => {
            if (error instanceof NotFoundError)
              throw new ValidationError(`records.${index}.action`, 'no such Action');
            throw error;
          });
          knownActions.add(input.actionId);
        }
        rows.push(await loggedRow(workspaceId, input, `records.${index}.`, knownVersions));
      }
      const traces = await loggedTraces(
        workspaceId,
        rows.filter((row) => row.source === 'gateway').map(loggedCall),
      );
      for (const row of rows) {
        const span = traces.spanOf.get(row.id);
        if (!span) continue;
        row.traceId = span.traceId;
        row.spanId = span.spanId;
      }
      // One statement: a batch and its traces are stored together, in one trip to the database.
      await repository.insertMany(rows, traces.statements);
      traces.stored();
      return rows.map((row) => row.id);
    },

    async listForAction(workspaceId, actionId, pagination) {
      await owners.requireAction(workspaceId, actionId);
      return repository.listByAction(workspaceId, actionId, pagination.skip, pagination.limit);
    },

    async update(workspaceId, id, { actionId, sessionId, ...fields }) {
      const stored = await repository.find(workspaceId, id);
      if (!stored) throw new NotFoundError('Data not found');
      if (actionId !== undefined && actionId !== stored.actionId)
        throw new ValidationError('action', 'a generation stays with the Action that made it');
      if (sessionId !== undefined && sessionId !== stored.sessionId)
        throw new ValidationError('session', 'a generation stays in its session');
      const updated = await repository.update(workspaceId, id, loggedColumns(fields, stored.fullPromptSent));
      if (!updated) throw new NotFoundError('Data not found');
      await changed(workspaceId, updated.createdAt);
      return updated;
    },

    async remove(workspaceId, id) {
      const removed = await repository.remove(workspaceId, id);
      if (!removed) throw new NotFoundError('Data not found');
      await changed(workspaceId, removed.createdAt);
      return removed;
    },

    async search(workspaceId, filter, pagination) {
      const page = await repository.search(workspaceId, filter, pagination.skip, pagination.limit);
      // One read of the page's feedback: the log view shows how much each record has.
      const counts = new Map<string, number>();
      for (const each of await feedback.listForGenerations(
        workspaceId,
        page.rows.map((row) => row.id),
      )) {
        counts.set(each.generationId, (counts.get(each.generationId) ?? 0) + 1);
      }
      return { ...page, rows: page.rows.map((row) => ({ ...row, feedbackCount: counts.get(row.id) ?? 0 })) };
    },

    scan(workspaceId, filter) {
      return repository.scan(workspaceId, filter);
    },

    async listForApp(workspaceId, appId, pagination) {
      await owners.requireApp(workspaceId, appId);
      return repository.listByApp(workspaceId, appId, pagination.skip, pagination.limit);
    },

    async listForSession(workspaceId, sessionId, pagination) {
      await owners.requireSession(workspaceId, sessionId);
      return repository.listBySession(workspaceId, sessionId, pagination.skip, pagination.limit);
    },

    async sessionHistory(workspaceId, sessionId) {
      const turns = await repository.sessionTurns(workspaceId, sessionId);
      return turns.flatMap((turn): PromptMessage[] => [
        ...turn.turn,
        { role: 'assistant', content: turn.output },
      ]);
    },

    findByCacheKey: (workspaceId, cacheKey) => repository.findByCacheKey(workspaceId, cacheKey),
  };
}
