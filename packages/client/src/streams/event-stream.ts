import { AbortedError, ConnectionError, LecternError, StreamError } from '../transport/errors.js';
import type { HttpClient } from '../transport/http.js';
import { wait } from '../transport/retry.js';
import { type ServerSentEvent, ServerSentEventParser } from './sse-parser.js';

export type EventStreamOptions = {
  signal?: AbortSignal;
  /** The stream is over after this event (it is still yielded). */
  isLast: (event: ServerSentEvent) => boolean;
  /** Reconnects allowed after the connection broke before the last event. Default 5. */
  maxReconnects?: number;
  /** Resume after this event id (a caller that already read part of the stream). */
  lastEventId?: string;
  /** Headers for every connection (the key is added by the HTTP client). */
  headers?: Record<string, string>;
};

/**
 * The events of an SSE URL, read with fetch and a real parser, pulled one at a time: however many
 * events arrive in one read, each is yielded. When the connection breaks before the last event it
 * reconnects with `Last-Event-ID` (Lectern sends the rest, docs/streaming.md) after the server's
 * `retry:` or 250 ms, doubling up to 30 s, at most `maxReconnects` times in a row without a new event.
 */
export async function* readEventStream(
  http: HttpClient,
  url: string,
  options: EventStreamOptions,
): AsyncGenerator<ServerSentEvent> {
  const maxReconnects = options.maxReconnects ?? 5;
  let lastEventId = options.lastEventId;
  let failuresInARow = 0;
  let retryMs = 250;
  for (;;) {
    let progressed = false;
    let failure: unknown;
    try {
      const parser = new ServerSentEventParser(lastEventId);
      const answer = await http.request<Response>({
        method: 'GET',
        path: url,
        read: 'stream',
        signal: options.signal,
        maxRetries: 0,
        headers: {
          accept: 'text/event-stream',
          ...options.headers,
          ...(lastEventId !== undefined && { 'last-event-id': lastEventId }),
        },
      });
      const reader = answer.body.body!.getReader();
      // The request's signal covered the connection only: an abort now stops the reading.
      const stop = () => void reader.cancel().catch(() => undefined);
      options.signal?.addEventListener('abort', stop, { once: true });
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          for (const event of parser.push(value)) {
            lastEventId = event.id;
            if (event.retry !== undefined) retryMs = event.retry;
            progressed = true;
            failuresInARow = 0;
            yield event;
            if (options.isLast(event)) return;
          }
        }
      } finally {
        options.signal?.removeEventListener('abort', stop);
        await reader.cancel().catch(() => undefined);
      }
      if (options.signal?.aborted)
        throw new AbortedError('the stream was aborted', { cause: options.signal.reason });
      failure = new StreamError('the stream ended before its last event');
    } catch (error) {
      if (options.signal?.aborted) throw new AbortedError('the stream was aborted', { cause: error });
      // An answer ≥ 400 on the first connection is the caller's to see (404 unknown, 410 consumed).
      if (error instanceof LecternError && !(error instanceof ConnectionError) && lastEventId === undefined)
        throw error;
      failure = error;
    }
    if (!progressed) failuresInARow += 1;
    if (failuresInARow > maxReconnects) {
      throw new StreamError(
        `the stream broke and could not be resumed after ${maxReconnects} attempts: ${(failure as Error)?.message}`,
        { cause: failure },
      );
    }
    const delayMs = Math.min(30_000, retryMs * 2 ** Math.max(0, failuresInARow - 1));
    await wait(delayMs, options.signal).catch((reason) => {
      throw new AbortedError('the stream was aborted', { cause: reason });
    });
  }
}
