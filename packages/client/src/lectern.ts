import type { Routes } from './api/api-types.js';
import {
  type Answer,
  type Body,
  type CallOptions,
  type RequestArguments,
  type Route,
  typedRequest,
} from './api/typed-request.js';
import { GenerationLog, type GenerationLogOptions, type GenerationRecord } from './prompts/generation-log.js';
import type { RenderedPrompt } from './prompts/prompt.js';
import { PromptCache, type PromptCacheOptions, type RenderTracer } from './prompts/prompt-cache.js';
import { streamTokens } from './streams/token-stream.js';
import { StreamError } from './transport/errors.js';
import { HttpClient, runIdempotencyKey } from './transport/http.js';
import { type ClientOptions, resolveOptions } from './transport/options.js';
import { wait } from './transport/retry.js';

type RunBody = Body<'POST /v1/actions/{guidOrSlug}/prompt'>;
/** How to run: which version or environment, a session, Context filters, caching… (the run route's body). */
export type RunOptions = Omit<RunBody, 'input' | 'streaming' | 'async_mode'> & CallOptions;
export type RunInput = RunBody['input'];
type RunAnswer = Answer<'POST /v1/actions/{guidOrSlug}/prompt'>;
export type SyncRunAnswer = Extract<RunAnswer, { msg: string; full_prompt_sent: unknown[] }>;

/** A streaming run: its generation's GUID at once, and its tokens as they come. */
export type StreamingRun = {
  dataGuid: string;
  feedbackUrl: string;
  streamingUrl: string;
  /** Every token, in order; resumed with `Last-Event-ID` if the connection breaks. Read once. */
  tokens: AsyncGenerator<string>;
  /** The whole text, once the stream ends. */
  text(): Promise<string>;
};

export type LecternOptions = ClientOptions & {
  /** The prompt cache: its time to live, snapshot, cache file, and whether deploys are pushed. */
  prompts?: PromptCacheOptions;
  /** An OpenTelemetry tracer: renders through `prompts.withRendered` name their prompt version in a span. */
  tracer?: RenderTracer;
  /** How `logGeneration` batches. */
  generationLog?: GenerationLogOptions;
};

/** A generation to log: a record as `POST /v1/data/batch` takes it, or one made with a rendered prompt. */
export type LoggedGeneration =
  | GenerationRecord
  | (Omit<GenerationRecord, 'action' | 'full_prompt_sent' | 'model'> & { rendered: RenderedPrompt });

/** A result URL's answer: `PENDING`, then `SUCCESS` with the output, or a failure naming its cause. */
export type RunResult = { msg: string; status: string };

/**
 * The Lectern client. `request` reaches every route of the API, typed from the service's schemas;
 * `actions` runs Actions in the three modes.
 *
 *   const lectern = new Lectern({ baseUrl: 'http://localhost:4000', apiKey: process.env.LECTERN_API_KEY });
 *   const { msg } = await lectern.actions.run('greeter', { name: 'Ada' });
 */
export class Lectern {
  readonly http: HttpClient;
  /** Deployed prompts from a cache that keeps serving when the service is down (docs/client.md). */
  readonly prompts: PromptCache;
  private readonly generations: GenerationLog;

  constructor(options: LecternOptions = {}) {
    this.http = new HttpClient(resolveOptions(options));
    this.prompts = new PromptCache(this.http, {
      ...options.prompts,
      tracer: options.tracer ?? options.prompts?.tracer,
    });
    this.generations = new GenerationLog(this.http, options.generationLog);
  }

  /**
   * Records a generation made with a cached prompt, without waiting: it is batched, sent in the
   * background and sent again if the service cannot take it. `flush()` before exiting.
   */
  logGeneration(generation: LoggedGeneration): void {
    if (!('rendered' in generation)) {
      this.generations.log(generation);
      return;
    }
    const { rendered, metadata, ...rest } = generation;
    this.generations.log({
      ...rest,
      action: rendered.action,
      model: rendered.model,
      full_prompt_sent: rendered.messages as GenerationRecord['full_prompt_sent'],
      metadata: { ...metadata, prompt_version: rendered.version, prompt_environment: rendered.environment },
    });
  }

  /** Counts of the generation log: sent, dropped (queue full), rejected (refused by the service), queued. */
  get generationLog(): { sent: number; dropped: number; rejected: number } {
    const { sent, dropped, rejected } = this.generations;
    return { sent, dropped, rejected };
  }

  /** Sends the generations that wait. */
  flush(): Promise<void> {
    return this.generations.flush();
  }

  /** Ends the push connection, writes the prompt cache file and sends the generations that wait. */
  async close(): Promise<void> {
    await this.prompts.close();
    await this.generations.flush();
    this.generations.close();
  }

  /** Any route: `lectern.request('GET /v1/actions/{guidOrSlug}', { path: { guidOrSlug: 'greeter' } })`. */
  request<R extends Route>(route: R, ...[options]: RequestArguments<R>): Promise<Routes[R]['answer']> {
    return typedRequest(this.http, route, options);
  }

  /** The tokens of a `streaming_url`, none dropped, resumed when the connection breaks. */
  streamTokens(streamingUrl: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<string> {
    return streamTokens(this.http, streamingUrl, options.signal);
  }

  /** One run request; with `idempotentRuns` each gets an `Idempotency-Key` of its own, so a retry never runs twice. */
  private startRun(action: string, body: RunBody, options: RunOptions): Promise<RunAnswer> {
    const { signal, timeoutMs, headers, idempotencyKey, ...fields } = options;
    return this.request('POST /v1/actions/{guidOrSlug}/prompt', {
      path: { guidOrSlug: action },
      body: { ...fields, ...body },
      signal,
      timeoutMs,
      headers,
      idempotencyKey: runIdempotencyKey(this.http.options, idempotencyKey),
    });
  }

  readonly actions = {
    /** Runs an Action (GUID or slug) and answers its output (`msg`), the messages sent and the generation's GUID. */
    run: async (action: string, input: RunInput, options: RunOptions = {}): Promise<SyncRunAnswer> =>
      (await this.startRun(action, { input }, options)) as SyncRunAnswer,

    /** Starts a streaming run: the generation's GUID at once, then its tokens. */
    stream: async (action: string, input: RunInput, options: RunOptions = {}): Promise<StreamingRun> => {
      const answer = (await this.startRun(action, { input, streaming: true }, options)) as {
        data_guid: string;
        feedback_url: string;
        streaming_url?: string;
      };
      if (!answer.streaming_url) throw new StreamError('the run answered no streaming_url');
      const tokens = this.streamTokens(answer.streaming_url, { signal: options.signal });
      return {
        dataGuid: answer.data_guid,
        feedbackUrl: answer.feedback_url,
        streamingUrl: answer.streaming_url,
        tokens,
        text: async () => {
          let text = '';
          for await (const token of tokens) text += token;
          return text;
        },
      };
    },

    /** Queues a run: answers its `result_url` (and `data_guid`) at once; `results.wait` reads the outcome. */
    runAsync: async (action: string, input: RunInput, options: RunOptions = {}) =>
      (await this.startRun(action, { input, async_mode: true }, options)) as Extract<
        RunAnswer,
        { result_url: string }
      >,
  };

  readonly results = {
    /** Polls a `result_url` until the run is no longer `PENDING` (every `intervalMs`, default 250). */
    wait: async (
      resultUrl: string,
      options: { intervalMs?: number; signal?: AbortSignal } = {},
    ): Promise<RunResult> => {
      for (;;) {
        const answer = await this.http.request<RunResult>({
          method: 'GET',
          path: resultUrl,
          signal: options.signal,
        });
        if (answer.body.status !== 'PENDING' && answer.body.status !== 'STARTED') return answer.body;
        await wait(options.intervalMs ?? 250, options.signal);
      }
    },
  };
}
