import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { AppError, isFinal, NotFoundError, publicMessage, UnauthorizedError } from '../../../errors.js';
import { defineJob, type JobHandler } from '../../../platform/jobs/job-queue.js';
import type { Signer } from '../../../platform/signing.js';
import type { NumberedEvent, StreamBus, StreamEvent } from '../../../platform/streams/stream-bus.js';
import type { AsyncRunRepository } from './async-run-repository.js';
import type { DurableRuns } from './durable-runs.js';
import type { PreparedRun, RunCaller, RunEngine, RunOptions } from './engine.js';
import { gatewayPayload } from './gateway-payload.js';
import type {
  AsyncRunResponse,
  GatewayPayloadResponse,
  RunResponse,
  RunResultResponse,
  StreamRunResponse,
  SyncRunResponse,
} from './responses.js';
import { queuedRunInput, type RunInput, type RunMode, runInputFromWire } from './run-input.js';
import { presentRunResult } from './run-result.js';
import type { RunBody } from './schemas.js';

/** docs/api.md#limits: a stream URL lives one hour and is consumed once. */
const streamLifetimeMs = 60 * 60 * 1000;
/**
 * docs/streaming.md: a reconnect with `Last-Event-ID` this soon after the first claim resumes. The
 * window never reopens, so a one-time URL cannot be replayed for ever by reconnecting again and again.
 */
const resumeWindowMs = 60_000;
const streamPurpose = 'stream';

export const asyncRunJob = defineJob({
  name: 'run-action',
  lane: 'interactive',
  payload: z.object({
    runId: z.uuid(),
    workspaceId: z.uuid(),
    actionId: z.uuid(),
    allowModelOverrides: z.boolean(),
    // A job queued by the release before this one carries the request body's names (it always set
    // async_mode): it is read the way the route reads a body.
    request: z.preprocess(
      (value) =>
        typeof value === 'object' && value !== null && 'async_mode' in value
          ? runInputFromWire(value as RunBody)
          : value,
      queuedRunInput,
    ),
    source: z.enum(['sync', 'stream', 'async', 'experiment', 'workflow', 'skill', 'evaluation', 'mcp']),
    experimentId: z.uuid().nullable(),
    /** The W3C traceparent of the request's trace: the job's run continues it. */
    traceparent: z.string().optional(),
  }),
  attempts: 3,
  backoffMs: 2_000,
  timeoutMs: 10 * 60 * 1000,
});

export type AsyncRunPayload = z.infer<typeof asyncRunJob.payload>;

// A run's answers are the API's own shapes (responses.ts), built here rather than by a presenter: they
// carry URLs this service mints (a signed stream URL, a result URL) and nothing else to translate.
export type { AsyncRunResponse, RunResponse, StreamRunResponse, SyncRunResponse };

export interface RunService {
  /** Runs an Action: at once, as a stream URL or in the background (docs/api.md#runs). */
  run(
    caller: RunCaller,
    guidOrSlug: string,
    request: RunInput,
    mode: RunMode,
    options?: Partial<RunOptions>,
  ): Promise<RunResponse>;
  /**
   * What a run would send, rendered and not run (`gateway_payload`), with the headers that log it
   * under the caller's key (`serviceApiKey`).
   */
  gatewayPayload(
    caller: RunCaller,
    guidOrSlug: string,
    request: RunInput,
    serviceApiKey: string,
  ): Promise<GatewayPayloadResponse>;
  /** docs/api.md result: PENDING until done, then SUCCESS with the text; a failed run is an error. */
  result(workspaceId: string, resultKey: string): Promise<RunResultResponse>;
  /**
   * Checks a stream URL and claims it: only the first consumer gets the events. A reconnect that
   * names the last event it had (`lastEventId`) within the resume window gets the ones after it;
   * the final event is sent again to one that had it, so a client that lost it can finish.
   */
  claimStream(
    streamId: string,
    token: string,
    signal: AbortSignal,
    lastEventId?: number,
  ): Promise<{ events: AsyncIterable<NumberedEvent>; resumed: boolean }>;
  /** Waits (bounded) for streamed generations still running, so their output is stored. */
  drain(timeoutMs?: number): Promise<void>;
  /** Runs a queued async run (the job `asyncRunJob`), wired in `src/jobs.ts`. */
  readonly asyncRunHandler: JobHandler<AsyncRunPayload>;
}

async function* eventsAfter(events: AsyncIterable<NumberedEvent>, lastEventId: number) {
  for await (const numbered of events) {
    if (numbered.sequence > lastEventId || numbered.event.type !== 'token') yield numbered;
  }
}

export function createRunService(dependencies: {
  engine: RunEngine;
  asyncRuns: AsyncRunRepository;
  durable: DurableRuns;
  streams: StreamBus;
  signer: Signer;
  baseUrl: string;
  logger: Logger;
}): RunService {
  const { engine, asyncRuns, durable, streams, signer, baseUrl, logger } = dependencies;
  /** Generations running for streams, so shutdown can let them finish. */
  const background = new Set<Promise<void>>();

  const feedbackUrl = (generationId: string) => `${baseUrl}/v1/feedback/${generationId}`;

  function sync(run: PreparedRun): Promise<SyncRunResponse> {
    return engine.execute(run).then((outcome) => ({
      msg: outcome.msg,
      full_prompt_sent: outcome.fullPromptSent,
      data_guid: outcome.generationId,
      feedback_url: feedbackUrl(outcome.generationId),
      ...(outcome.cost && { cost: outcome.cost }),
    }));
  }

  /** The generation starts now; its tokens wait in the stream bus for the URL's one consumer. */
  async function stream(run: PreparedRun): Promise<StreamRunResponse> {
    const streamId = run.generationId;
    await streams.create(streamId, streamLifetimeMs);
    // Appends are chained so a bus with asynchronous writes (Redis) keeps the tokens in order.
    let appended = Promise.resolve();
    const append = (event: StreamEvent) => {
      appended = appended.then(() => streams.append(streamId, event));
      return appended;
    };
    let streamed = '';
    const task = engine
      .execute(run, {
        onToken: (token) => {
          streamed += token;
          void append({ type: 'token', token });
        },
      })
      .then(async (outcome) => {
        // Tool calls arrive whole, not as text: send what the record holds beyond the text, so the
        // stored output is the concatenation of the tokens.
        if (outcome.msg !== streamed && outcome.msg.startsWith(streamed)) {
          await append({ type: 'token', token: outcome.msg.slice(streamed.length) });
        }
        await append({ type: 'end' });
      })
      .catch(async (error: unknown) => {
        logger.warn({ err: error, generation: streamId }, 'streamed generation failed');
        await append({ type: 'error', message: publicMessage(error) });
      })
      .catch((error: unknown) => logger.error({ err: error }, 'stream bus write failed'))
      .finally(() => background.delete(task));
    background.add(task);
    const token = signer.sign(streamPurpose, streamId, Date.now() + streamLifetimeMs);
    const query = new URLSearchParams({ guid: streamId, token });
    return {
      msg: '',
      full_prompt_sent: run.prompt.messages,
      data_guid: streamId,
      streaming: true,
      streaming_url: `${baseUrl}/api/streamByURL?${query}`,
      feedback_url: feedbackUrl(streamId),
    };
  }

  async function queue(run: PreparedRun): Promise<AsyncRunResponse> {
    const runId = randomUUID();
    await asyncRuns.insert({
      id: runId,
      workspaceId: run.caller.workspaceId,
      actionId: run.resolved.action.id,
      generationId: run.generationId,
      status: 'pending',
    });
    // The version is pinned now, so a deploy before the job runs does not change what runs.
    const { draft: _none, ...pinned } = run.request;
    const request = {
      ...pinned,
      version: run.resolved.version.version,
      environment: run.resolved.environment ?? undefined,
    };
    const payload = {
      runId,
      workspaceId: run.caller.workspaceId,
      actionId: run.resolved.action.id,
      allowModelOverrides: run.caller.allowModelOverrides,
      request,
      source: run.source,
      experimentId: run.experimentId,
      traceparent: run.trace.traceparent(),
    };
    await durable.enqueue(asyncRunJob, payload, (failure) => asyncRuns.markFailed(runId, failure));
    // The job's run is a child of this trace's root, wherever it runs.
    run.trace.end();
    return {
      msg: 'Running',
      full_prompt_sent: null,
      result_url: `${baseUrl}/v1/actions/result/${runId}`,
      data_guid: run.generationId,
      feedback_url: feedbackUrl(run.generationId),
    };
  }

  return {
    asyncRunHandler: {
      async process(payload, context) {
        const run = await asyncRuns.find(payload.workspaceId, payload.runId);
        if (run?.status !== 'pending') return;
        try {
          const caller = {
            workspaceId: payload.workspaceId,
            allowModelOverrides: payload.allowModelOverrides,
            ...(payload.traceparent && { traceparent: payload.traceparent }),
          };
          const { output } = await durable.generate(
            caller,
            payload.actionId,
            payload.request,
            { generationId: run.generationId, source: payload.source, experimentId: payload.experimentId },
            context.signal,
          );
          await asyncRuns.markSucceeded(run.id, output);
        } catch (error) {
          if (!isFinal(error)) throw error;
          await asyncRuns.markFailed(run.id, {
            status: error.status,
            code: error.code,
            message: error.message,
          });
        }
      },
      async onFinalFailure(payload, error) {
        await asyncRuns.markFailed(payload.runId, {
          status: 502,
          code: 'run_failed',
          message: publicMessage(error),
        });
      },
    },

    async gatewayPayload(caller, guidOrSlug, request, serviceApiKey) {
      const run = await engine.prepare(caller, guidOrSlug, request, { source: 'sync', purpose: 'payload' });
      // Nothing is run here: the trace holds what preparing it took.
      run.trace.end();
      return gatewayPayload(run, serviceApiKey);
    },

    async run(caller, guidOrSlug, request, mode, options = {}) {
      const run = await engine.prepare(caller, guidOrSlug, request, {
        ...options,
        source: options.source ?? mode,
      });
      if (mode === 'stream') return stream(run);
      if (mode === 'async') return queue(run);
      return sync(run);
    },

    async result(workspaceId, resultKey) {
      const run = await asyncRuns.find(workspaceId, resultKey);
      if (!run) throw new NotFoundError('Run not found');
      return presentRunResult(run, feedbackUrl);
    },

    async claimStream(streamId, token, signal, lastEventId) {
      const verification = signer.verify(streamPurpose, streamId, token);
      if (verification === 'invalid') throw new UnauthorizedError('Invalid stream token');
      if (verification === 'expired') throw new NotFoundError('No data found in cache');
      const claim = await streams.claim(streamId, { resume: lastEventId !== undefined, resumeWindowMs });
      if (claim === 'unknown') throw new NotFoundError('No data found in cache');
      if (claim === 'consumed') throw new AppError(410, 'stream_consumed', 'stream has been consumed');
      const events = streams.read(streamId, signal);
      if (lastEventId === undefined) return { events, resumed: false };
      return { events: eventsAfter(events, lastEventId), resumed: true };
    },

    async drain(timeoutMs = 10_000) {
      await Promise.race([
        Promise.allSettled([...background]),
        new Promise((resolve) => setTimeout(resolve, timeoutMs).unref()),
      ]);
    },
  };
}
