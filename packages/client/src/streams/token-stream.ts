import { StreamError } from '../transport/errors.js';
import type { HttpClient } from '../transport/http.js';
import { readEventStream } from './event-stream.js';
import type { ServerSentEvent } from './sse-parser.js';

/** The data of the first and last events of a run's stream (docs/streaming.md). */
export const beginStream = 'BEGIN_STREAM';
export const endStream = 'END_STREAM';
/** What the hosted original sent for an empty stream; read as its end. */
const noMessages = 'No messages to stream';

function isLast(event: ServerSentEvent): boolean {
  return event.event === 'error' || event.data === endStream || event.data === noMessages;
}

/**
 * The tokens of a run's `streaming_url`, each event's in order and none dropped, resuming with
 * `Last-Event-ID` when the connection breaks. A failed generation's `event: error` is thrown as a
 * StreamError carrying the service's message.
 */
export async function* streamTokens(
  http: HttpClient,
  streamingUrl: string,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  for await (const event of readEventStream(http, streamingUrl, { signal, isLast })) {
    if (event.event === 'error') {
      let message = event.data;
      try {
        message = (JSON.parse(event.data) as { message?: string }).message ?? event.data;
      } catch {
        // Not JSON: the data is the message.
      }
      throw new StreamError(message, { serverMessage: message });
    }
    if (event.data === beginStream || event.data === endStream || event.data === noMessages) continue;
    const { token } = JSON.parse(event.data) as { token: string };
    yield token;
  }
}
