import { createHash, randomUUID } from 'node:crypto';
import type { Span } from '@opentelemetry/api';
import { isGuid } from '../../../core/guid.js';
import type { GenerationCost, PromptMessage, SnippetPins } from '../../../core/json-columns.js';
import type { MetadataFilter } from '../../../core/metadata-filter.js';
import { AppError, ValidationError } from '../../../errors.js';
import { messageText, toModelMessages } from '../../../llm/messages.js';
import { callModel, type ModelAnswer } from '../../../llm/model-call.js';
import { generationCost } from '../../../llm/prices.js';
import { splitModelReference } from '../../../llm/provider-kinds.js';
import { wordTokens } from '../../../llm/tokens.js';
import type { ServerTools, ToolRegistry } from '../../../llm/tool-registry.js';
import type { RunTrace, Tracing } from '../../../platform/tracing.js';
import type { ActionService, ResolvedAction } from '../../authoring/actions/index.js';
import type { ModelPurpose, ModelResolver, ResolvedModel } from '../../models/providers/index.js';
import type { GenerationService, RunRecord, RunSource } from '../generations/index.js';
import type { SessionService } from '../sessions/index.js';
import { type BuiltPrompt, buildPrompt } from './prompt.js';
import type { RunInput } from './run-input.js';
import { modelCallSpans, toolsTraced } from './run-spans.js';
import type { ModelOptions, PromptInput } from './schemas.js';

/** Finds Context chunks for a run; the Contexts feature provides it (none are found without it). */
export type Retriever = (query: {
  workspaceId: string;
  contextIds: string[];
  text: string;
  metadataFilter?: MetadataFilter;
  legacyFilter?: string | null;
}) => Promise<string[]>;

/** Who runs: the workspace and whether it lets requests override the model. */
export type RunCaller = {
  workspaceId: string;
  allowModelOverrides: boolean;
  /** The W3C `traceparent` of the request that asked for the run: its trace joins the caller's. */
  traceparent?: string;
};

export type { RunSource };

export type PreparedRun = {
  caller: RunCaller;
  generationId: string;
  resolved: ResolvedAction;
  model: ResolvedModel;
  prompt: BuiltPrompt;
  request: RunInput;
  sessionId: string | null;
  tools: ServerTools;
  cacheKey: string | null;
  source: RunSource;
  experimentId: string | null;
  depth: number;
  /**
   * The run's trace. `execute` ends it; a caller that only prepares (a render, a gateway payload)
   * or hands the run to a job ends it itself.
   */
  trace: RunTrace;
};

export type RunOutcome = {
  generationId: string;
  msg: string;
  fullPromptSent: PromptMessage[];
  cost: GenerationCost | undefined;
  cached: boolean;
  /** The model call's time (0 for a cached answer), as the generation stores it. */
  latencyMs: number;
};

export type RunOptions = {
  /** A GUID chosen by the caller (streams and async runs announce it before the run ends). */
  generationId?: string;
  source: RunSource;
  experimentId?: string | null;
  /** Runs above this one: an `action` skill's run is one deeper than the run that called it. */
  depth?: number;
  /** `payload`: only rendered for the caller to forward (`gateway_payload`), so no provider key is required. */
  purpose?: ModelPurpose;
};

function modelReference(actionModel: string, resolved: ResolvedModel, options: ModelOptions | undefined) {
  if (!options?.provider && !options?.model) return actionModel;
  const original = isGuid(actionModel) ? undefined : splitModelReference(actionModel);
  const provider = options.provider ?? original?.prefix ?? resolved.kind;
  return `${provider}/${options.model ?? resolved.modelName}`;
}

/** A generation's metadata names the snippet versions its prompt included (`{ name: version }`). */
function withSnippets(metadata: Record<string, unknown>, pins: SnippetPins): Record<string, unknown> {
  const names = Object.keys(pins);
  if (names.length === 0) return metadata;
  return { ...metadata, snippets: Object.fromEntries(names.map((name) => [name, pins[name]!.version])) };
}

function lastUserText(messages: PromptMessage[]): string {
  const last = messages.findLast((message) => message.role === 'user');
  return last ? messageText(last.content) : '';
}

function inputQueryText(input: PromptInput): string {
  if (typeof input === 'string') return input;
  if (Array.isArray(input)) return lastUserText(input as PromptMessage[]);
  return Object.values(input)
    .filter((value) => typeof value === 'string')
    .join('\n');
}

/**
 * The one run engine (docs/architecture.md#layers): every run mode (sync, stream, async, experiment
 * arm, workflow block, Skill) runs an Action through it. `prepare` checks and renders, `execute`
 * calls the model and stores the generation.
 */
export interface RunEngine {
  /** Everything a run needs, checked before anything is called or stored: bad input fails here with a 400. */
  prepare(
    caller: RunCaller,
    guidOrSlug: string,
    request: RunInput,
    options: RunOptions,
  ): Promise<PreparedRun>;
  /** Calls the model (or the cache) and stores the complete generation; nothing is stored on failure. */
  execute(
    run: PreparedRun,
    options?: { onToken?: (token: string) => void; signal?: AbortSignal },
  ): Promise<RunOutcome>;
}

export function createRunEngine(dependencies: {
  actions: ActionService;
  models: ModelResolver;
  sessions: SessionService;
  generations: GenerationService;
  tools: ToolRegistry;
  retriever: Retriever;
  tracing: Pick<Tracing, 'startRun' | 'fail'>;
}): RunEngine {
  const { actions, models, sessions, generations, tools, retriever, tracing } = dependencies;

  /** Starts the run's trace; a run that fails to prepare ends it failed. */
  async function prepare(
    caller: RunCaller,
    guidOrSlug: string,
    request: RunInput,
    options: RunOptions,
  ): Promise<PreparedRun> {
    const trace = tracing.startRun(caller.workspaceId, caller.traceparent);
    try {
      return await prepareTraced(caller, guidOrSlug, request, options, trace);
    } catch (error) {
      // A request refused for the caller's error (a 4xx) is no run and stores nothing, its trace
      // included: the span is dropped unended. A failure of the service's own is a failed trace.
      if (!(error instanceof AppError && error.status < 500)) trace.end(error);
      throw error;
    }
  }

  /** Everything a run needs, checked before anything is called or stored: bad input fails here with a 400. */
  async function prepareTraced(
    caller: RunCaller,
    guidOrSlug: string,
    request: RunInput,
    options: RunOptions,
    trace: RunTrace,
  ): Promise<PreparedRun> {
    if (request.draft && (request.version !== undefined || request.environment !== undefined)) {
      throw new ValidationError(
        'draft',
        'runs the latest version with its changes: give no version or environment',
      );
    }
    const resolved = request.draft
      ? await actions.resolveDraft(caller.workspaceId, guidOrSlug, request.draft)
      : await actions.resolveForRun(caller.workspaceId, guidOrSlug, request);
    const { action, version } = resolved;
    if (request.modelOptions && !caller.allowModelOverrides) {
      throw new ValidationError('modelOptions', 'this workspace does not allow model overrides');
    }
    const purpose = options.purpose ?? 'run';
    const actionModel = await models.resolve(caller.workspaceId, version.model, purpose);
    const reference = modelReference(version.model, actionModel, request.modelOptions);
    const model =
      reference === version.model
        ? actionModel
        : await models.resolve(caller.workspaceId, reference, purpose);
    const sessionId = request.sessionId ?? null;
    if (sessionId) await sessions.requireForRun(caller.workspaceId, sessionId, action.id);
    const contextChunks =
      version.contexts.length > 0
        ? await trace.within(
            'retrieve',
            () =>
              retriever({
                workspaceId: caller.workspaceId,
                contextIds: version.contexts,
                text: inputQueryText(request.input),
                metadataFilter: request.metadata,
                legacyFilter: request.legacyFilter,
              }),
            { 'lectern.contexts': version.contexts.length },
          )
        : [];
    const prompt = await buildPrompt({
      version,
      input: request.input,
      extraMessages: request.messages,
      history: sessionId ? await generations.sessionHistory(caller.workspaceId, sessionId) : [],
      contextChunks,
    });
    const runTools = await tools.toolsFor(caller.workspaceId, version);
    const cacheKey = request.cache
      ? createHash('sha256')
          .update(
            JSON.stringify([
              action.id,
              version.version,
              prompt.messages,
              model.kind,
              model.modelName,
              version.modelConfig,
              request.modelOptions?.jsonSchema ?? null,
              runTools.definitions,
            ]),
          )
          .digest('hex')
      : null;
    const generationId = options.generationId ?? randomUUID();
    trace.describe(`run ${action.slug}`, {
      'lectern.action': action.id,
      'lectern.source': options.source,
      ...(!resolved.draft && { 'lectern.version': version.version }),
      // A conversation's runs are found by their session (GET /v1/traces?session=).
      ...(sessionId && { 'session.id': sessionId }),
    });
    return {
      caller,
      generationId,
      trace,
      resolved,
      model,
      prompt,
      request,
      sessionId,
      tools: runTools,
      cacheKey,
      source: options.source,
      experimentId: options.experimentId ?? null,
      depth: options.depth ?? 0,
    };
  }

  function runRecord(
    run: PreparedRun,
    answer: ModelAnswer,
    measured: Pick<RunRecord, 'cost' | 'latencyMs' | 'cached'>,
    span: Span,
  ): RunRecord {
    return {
      generationId: run.generationId,
      trace:
        run.trace.traceId === null ? null : { traceId: run.trace.traceId, spanId: span.spanContext().spanId },
      workspaceId: run.caller.workspaceId,
      action: {
        id: run.resolved.action.id,
        environment: run.resolved.environment,
        // A draft is no saved version: its generation says so by having none.
        version: run.resolved.draft ? null : run.resolved.version.version,
      },
      sessionId: run.sessionId,
      experimentId: run.experimentId,
      request: {
        input: run.request.input,
        extUserId: run.request.endUser ?? null,
        metadata: withSnippets(run.request.metadata ?? {}, run.resolved.version.snippets),
      },
      prompt: run.prompt,
      model: { name: run.model.modelName, provider: run.model.kind },
      output: answer.msg,
      usage: answer.usage,
      source: run.source,
      cacheKey: run.cacheKey,
      ...measured,
    };
  }

  /** A stored answer for the same cache key, replayed without a provider call (docs/architecture.md#layers). */
  async function fromCache(
    run: PreparedRun,
    onToken?: (token: string) => void,
  ): Promise<RunOutcome | undefined> {
    if (!run.cacheKey) return undefined;
    const hit = await generations.findByCacheKey(run.caller.workspaceId, run.cacheKey);
    if (!hit) return undefined;
    const span = run.trace.child('cache hit', { 'lectern.generation': run.generationId });
    if (onToken) for (const token of wordTokens(hit.output)) onToken(token);
    const cost = { input: 0, output: 0, generation: 0 };
    const answer: ModelAnswer = {
      msg: hit.output,
      text: hit.output,
      toolCalls: [],
      usage: { inputTokens: hit.numInputTokens ?? 0, outputTokens: hit.numOutputTokens ?? 0 },
    };
    await generations.recordRun(runRecord(run, answer, { cached: true, cost, latencyMs: 0 }, span));
    span.end();
    run.trace.end();
    return {
      generationId: run.generationId,
      msg: hit.output,
      fullPromptSent: run.prompt.messages,
      cost,
      cached: true,
      latencyMs: 0,
    };
  }

  /** Calls the model (or the cache) and stores the complete generation; nothing is stored on failure. */
  async function execute(
    run: PreparedRun,
    options: { onToken?: (token: string) => void; signal?: AbortSignal } = {},
  ): Promise<RunOutcome> {
    try {
      return await executeTraced(run, options);
    } catch (error) {
      run.trace.end(error);
      throw error;
    }
  }

  async function executeTraced(
    run: PreparedRun,
    options: { onToken?: (token: string) => void; signal?: AbortSignal },
  ): Promise<RunOutcome> {
    const cached = await fromCache(run, options.onToken);
    if (cached) return cached;
    const version = run.resolved.version;
    const calls = modelCallSpans(run.trace, run.model, run.generationId, tracing);
    const started = performance.now();
    const answer = await callModel({
      model: run.model.languageModel,
      kind: run.model.kind,
      messages: toModelMessages(run.prompt.messages),
      config: version.modelConfig,
      jsonSchema: run.request.modelOptions?.jsonSchema,
      tools: toolsTraced(run.tools, run.trace, calls),
      executeTools: run.request.executeToolCalls !== false,
      workspaceId: run.caller.workspaceId,
      depth: run.depth,
      store: run.request.store,
      signal: options.signal,
      onToken: options.onToken,
      steps: calls.steps,
    }).catch(async (error: unknown) => {
      // Counted for the dashboard's errors unless the caller itself gave up (a shutdown, a cancel).
      if (!options.signal?.aborted) {
        await generations
          .recordFailure({
            workspaceId: run.caller.workspaceId,
            action: {
              id: run.resolved.action.id,
              environment: run.resolved.environment,
              version: run.resolved.draft ? null : version.version,
            },
            model: { name: run.model.modelName, provider: run.model.kind },
            source: run.source,
            message: error instanceof Error ? error.message : String(error),
          })
          // The run's own error is what its caller needs; a count that could not be written is lost.
          .catch(() => undefined);
      }
      calls.fail(error);
      throw error;
    });
    const latencyMs = Math.round(performance.now() - started);
    const cost = await generationCost(run.model.kind, run.model.modelName, answer.usage);
    await generations.recordRun(
      runRecord(run, answer, { cached: false, cost: cost ?? null, latencyMs }, calls.last()),
    );
    calls.end(cost);
    run.trace.end();
    return {
      generationId: run.generationId,
      msg: answer.msg,
      fullPromptSent: run.prompt.messages,
      cost,
      cached: false,
      latencyMs,
    };
  }

  return { prepare, execute };
}
