import type { Routes } from './api/api-types.js';
import {
  type Answer,
  type Body,
  type CallOptions,
  type RequestArguments,
  type Route,
  typedRequest,
} from './api/typed-request.js';
import { streamTokens } from './streams/token-stream.js';
import { StreamError } from './transport/errors.js';
import { HttpClient } from './transport/http.js';
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

  constructor(options: ClientOptions = {}) {
    this.http = new HttpClient(resolveOptions(options));
  }

  /** Any route: `lectern.request('GET /v1/actions/{guidOrSlug}', { path: { guidOrSlug: 'greeter' } })`. */
  request<R extends Route>(route: R, ...[options]: RequestArguments<R>): Promise<Routes[R]['answer']> {
    return typedRequest(this.http, route, options);
  }

  /** The tokens of a `streaming_url`, none dropped, resumed when the connection breaks. */
  streamTokens(streamingUrl: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<string> {
    return streamTokens(this.http, streamingUrl, options.signal);
  }

  readonly actions = {
    /** Runs an Action (GUID or slug) and answers its output (`msg`), the messages sent and the generation's GUID. */
    run: async (action: string, input: RunInput, options: RunOptions = {}): Promise<SyncRunAnswer> => {
      const { signal, timeoutMs, headers, idempotencyKey, ...fields } = options;
      const answer = await this.request('POST /v1/actions/{guidOrSlug}/prompt', {
        path: { guidOrSlug: action },
        body: { ...fields, input },
        signal,
        timeoutMs,
        headers,
        idempotencyKey: idempotencyKey ?? crypto.randomUUID(),
      });
      return answer as SyncRunAnswer;
    },

    /** Starts a streaming run: the generation's GUID at once, then its tokens. */
    stream: async (action: string, input: RunInput, options: RunOptions = {}): Promise<StreamingRun> => {
      const { signal, timeoutMs, headers, idempotencyKey, ...fields } = options;
      const answer = (await this.request('POST /v1/actions/{guidOrSlug}/prompt', {
        path: { guidOrSlug: action },
        body: { ...fields, input, streaming: true },
        signal,
        timeoutMs,
        headers,
        idempotencyKey: idempotencyKey ?? crypto.randomUUID(),
      })) as { data_guid: string; feedback_url: string; streaming_url?: string };
      if (!answer.streaming_url) throw new StreamError('the run answered no streaming_url');
      const tokens = this.streamTokens(answer.streaming_url, { signal });
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
    runAsync: async (action: string, input: RunInput, options: RunOptions = {}) => {
      const { signal, timeoutMs, headers, idempotencyKey, ...fields } = options;
      const answer = await this.request('POST /v1/actions/{guidOrSlug}/prompt', {
        path: { guidOrSlug: action },
        body: { ...fields, input, async_mode: true },
        signal,
        timeoutMs,
        headers,
        idempotencyKey: idempotencyKey ?? crypto.randomUUID(),
      });
      return answer as Extract<RunAnswer, { result_url: string }>;
    },
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
