import { APICallError, UnsupportedFunctionalityError } from '@ai-sdk/provider';
import { ProviderError } from '../errors.js';
import { OutboundFetchError } from '../platform/outbound-guard.js';

/** Statuses a provider answers because of what we sent: the caller's input is at fault. */
const inputFaultStatuses = new Set([400, 404, 413, 415, 422]);

/**
 * Any failure of a model call as a ProviderError: rate limits, server errors, timeouts and network
 * failures may succeed on another attempt; other 4xx answers never do.
 */
export function toProviderError(error: unknown, providerName: string): ProviderError {
  if (error instanceof ProviderError) return error;
  const failure = (message: string, retryable: boolean, status: number) =>
    Object.assign(new ProviderError(message, retryable, status), { cause: error });
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const detail = `${providerName} answered ${status ?? 'without a status'}: ${error.message}`;
    if (status === 429) return failure(detail, true, 429);
    if (status !== undefined && inputFaultStatuses.has(status)) return failure(detail, false, 400);
    if (status !== undefined && status < 500 && status !== 408) return failure(detail, false, 502);
    // Adapters mark 408, 409 and 5xx retryable; the mock's "unavailable" error says it is not worth retrying.
    return failure(detail, error.isRetryable || status === undefined, 502);
  }
  if (error instanceof OutboundFetchError) {
    // A refused destination is the provider record's fault: no attempt can reach it.
    return failure(
      `${providerName} cannot be called: ${error.message}`,
      error.retryable,
      error.retryable ? 502 : 400,
    );
  }
  if (UnsupportedFunctionalityError.isInstance(error)) {
    return failure(`${providerName} does not support ${error.functionality}`, false, 400);
  }
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return failure(`${providerName} did not answer in time`, true, 504);
  }
  return failure(`${providerName} call failed: ${message}`, true, 502);
}

/**
 * The delay a 429 or 503 asks for: `retry-after-ms`, or `retry-after` as seconds or as an HTTP date
 * (RFC 9110 allows both), when it says. A date in the past asks for no wait.
 */
export function requestedRetryDelayMs(error: unknown, now = Date.now()): number | undefined {
  const cause = error instanceof ProviderError ? error.cause : error;
  if (!APICallError.isInstance(cause)) return undefined;
  const headers = cause.responseHeaders ?? {};
  const milliseconds = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(milliseconds) && milliseconds >= 0)
    return milliseconds;
  const retryAfter = headers['retry-after'];
  if (retryAfter === undefined) return undefined;
  const seconds = Number(retryAfter);
  if (retryAfter.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
