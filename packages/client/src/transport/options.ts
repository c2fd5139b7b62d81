/** How a client reaches Lectern; every field but `apiKey` has a default. */
export type ClientOptions = {
  /** Where Lectern answers, e.g. `https://lectern.internal` (its `/v1` routes are under it). Default `http://localhost:4000`. */
  baseUrl?: string;
  /** A workspace API key (`lec_…`), sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** Milliseconds one attempt may take before it is abandoned (and retried). Default 60,000. */
  timeoutMs?: number;
  /** Further attempts after a `429`, a `5xx` or a broken connection. Default 2. */
  maxRetries?: number;
  /** Headers sent with every request (a proxy's, a tracing header). */
  headers?: Record<string, string>;
  /** The fetch to use (a test's, a proxy agent's). Default: the global fetch. */
  fetch?: typeof fetch;
  /**
   * Send every run request with an `Idempotency-Key` of its own, so that a run is retried after a
   * `5xx` or a broken connection too, never making a second generation. It costs the service two
   * writes per run (~3 ms on the embedded database), so it is off by default: without it a run is
   * retried only when the service surely did nothing (`429`, `503`, no connection).
   */
  idempotentRuns?: boolean;
};

export type ResolvedOptions = {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  headers: Record<string, string>;
  fetch: typeof fetch;
  idempotentRuns: boolean;
};

export const defaultBaseUrl = 'http://localhost:4000';

function environmentValue(name: string): string | undefined {
  return typeof process !== 'undefined' && process.env ? process.env[name] : undefined;
}

/** Options with defaults filled; `LECTERN_BASE_URL` and `LECTERN_API_KEY` stand in for missing ones in Node. */
export function resolveOptions(options: ClientOptions = {}): ResolvedOptions {
  const baseUrl = (options.baseUrl ?? environmentValue('LECTERN_BASE_URL') ?? defaultBaseUrl)
    .replace(/\/+$/, '')
    .replace(/\/v1$/, '');
  return {
    baseUrl,
    apiKey: options.apiKey ?? environmentValue('LECTERN_API_KEY'),
    timeoutMs: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries ?? 2,
    headers: options.headers ?? {},
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    idempotentRuns: options.idempotentRuns ?? false,
  };
}
