import { AbortedError, ConnectionError, errorForAnswer, LecternError, TimeoutError } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { isRetryable, retryDelayMs, wait } from './retry.js';

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export type HttpRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A path under the base URL (`/v1/actions`), or an absolute URL the service handed out. */
  path: string;
  query?: Record<string, QueryValue>;
  /** Sent as JSON, or as is when it is FormData. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** This request's limit per attempt, instead of the client's. */
  timeoutMs?: number;
  /** Makes a POST safe to retry: the service answers a retry with the first answer. */
  idempotencyKey?: string;
  /** `stream`: the answer's body is handed over unread (the time limit covers the headers only). */
  read?: 'json' | 'stream';
  /** Further attempts, instead of the client's. */
  maxRetries?: number;
};

export type HttpAnswer<Body> = { status: number; headers: Headers; body: Body };

/** The key a run request carries: the caller's, or a new one when the client makes runs idempotent. */
export function runIdempotencyKey(options: ResolvedOptions, given?: string): string | undefined {
  return given ?? (options.idempotentRuns ? crypto.randomUUID() : undefined);
}

/** The request URL: an absolute URL as given, a path under the base URL, with the query's defined values. */
export function requestUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  const url = new URL(/^https?:\/\//.test(path) ? path : `${baseUrl}${path}`);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, String(item));
    else url.searchParams.set(name, String(value));
  }
  return url.toString();
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.length === 0) return undefined;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** A signal that aborts with the caller's signal or after `timeoutMs`, and says which. */
function attemptSignal(timeoutMs: number, caller?: AbortSignal) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new TimeoutError(`no answer within ${timeoutMs} ms`));
  }, timeoutMs);
  const onAbort = () => controller.abort(caller!.reason);
  if (caller?.aborted) onAbort();
  else caller?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    /** Stops the timer (the answer's headers came) and forgets the caller's signal. */
    settle() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Every request of the client goes through here: the key, JSON, the time limit and the caller's
 * signal per attempt, retries as transport/retry.ts decides (honouring `Retry-After`), and an error
 * of the status's family for an answer ≥ 400.
 */
export class HttpClient {
  constructor(readonly options: ResolvedOptions) {}

  async request<Body = unknown>(request: HttpRequest): Promise<HttpAnswer<Body>> {
    const maxRetries = request.maxRetries ?? this.options.maxRetries;
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.attempt<Body>(request);
      } catch (error) {
        const retry = attempt < maxRetries && this.retryable(request, error);
        if (!retry) throw error;
        const asked = error instanceof LecternError ? error.retryAfterMs : undefined;
        await wait(retryDelayMs(attempt + 1, asked), request.signal).catch((reason) => {
          throw abortedError(reason);
        });
      }
    }
  }

  private retryable(request: HttpRequest, error: unknown): boolean {
    if (error instanceof AbortedError) return false;
    const idempotent = request.idempotencyKey !== undefined;
    if (error instanceof ConnectionError) {
      return isRetryable(request.method, idempotent, { connectionError: error.cause ?? error });
    }
    if (error instanceof LecternError && error.status !== undefined) {
      return isRetryable(request.method, idempotent, { status: error.status });
    }
    return false;
  }

  private async attempt<Body>(request: HttpRequest): Promise<HttpAnswer<Body>> {
    const url = requestUrl(this.options.baseUrl, request.path, request.query);
    const headers: Record<string, string> = { ...this.options.headers, ...request.headers };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
    let body: RequestInit['body'];
    if (request.body instanceof FormData) body = request.body;
    else if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    const limit = attemptSignal(request.timeoutMs ?? this.options.timeoutMs, request.signal);
    let response: Response;
    try {
      response = await this.options.fetch(url, {
        method: request.method,
        headers,
        body,
        signal: limit.signal,
      });
    } catch (error) {
      limit.settle();
      throw failureOf(error, limit.timedOut(), request.signal);
    }
    try {
      if (request.read === 'stream' && response.ok) {
        limit.settle();
        return { status: response.status, headers: response.headers, body: response as Body };
      }
      const answer = await readBody(response);
      if (response.status >= 400) throw errorForAnswer(response.status, answer, response.headers);
      return { status: response.status, headers: response.headers, body: answer as Body };
    } catch (error) {
      if (error instanceof LecternError) throw error;
      throw failureOf(error, limit.timedOut(), request.signal);
    } finally {
      limit.settle();
    }
  }
}

function abortedError(reason: unknown): LecternError {
  if (reason instanceof LecternError) return reason;
  return new AbortedError('the request was aborted', { cause: reason });
}

/** A fetch that failed: the time limit, the caller's abort, or a connection that broke. */
function failureOf(error: unknown, timedOut: boolean, caller?: AbortSignal): LecternError {
  if (timedOut) return new TimeoutError((error as Error)?.message ?? 'timed out', { cause: error });
  if (caller?.aborted) return abortedError(caller.reason);
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const detail = (cause as Error)?.message ?? String(cause);
  return new ConnectionError(`could not reach Lectern: ${detail}`, { cause });
}
