import { useCallback, useEffect, useRef, useState } from 'react';
import { type Answer, api, type Body } from './api';

/** A run's request: its input and which version runs (the stream is asked for here). */
export type RunRequest = Omit<Body<'POST /v1/actions/{guidOrSlug}/prompt'>, 'streaming'>;

export type StreamState =
  | { status: 'idle' }
  | { status: 'starting' }
  | { status: 'streaming'; text: string; dataGuid: string; startedAt: number; firstTokenMs?: number }
  | { status: 'done'; text: string; dataGuid: string; firstTokenMs?: number; totalMs: number }
  | { status: 'failed'; text: string; message: string; dataGuid?: string };

/**
 * The stream URL names the service's public base URL; the page reads it from its own origin, so the
 * session cookie goes with it and a proxy's host name does not matter.
 */
function samePagePath(streamingUrl: string): string {
  const url = new URL(streamingUrl, window.location.origin);
  return `${url.pathname}${url.search}`;
}

/**
 * Starts a streaming run and follows its one-time SSE URL: tokens are appended as they arrive,
 * END_STREAM finishes it, an `error` event fails it with the service's message.
 */
export function useStreamRun() {
  const [state, setState] = useState<StreamState>({ status: 'idle' });
  const source = useRef<EventSource | null>(null);
  useEffect(() => () => source.current?.close(), []);

  const start = useCallback(async (action: string, body: RunRequest) => {
    source.current?.close();
    setState({ status: 'starting' });
    let answer: Answer<'POST /v1/actions/{guidOrSlug}/prompt'>;
    try {
      answer = await api('POST /v1/actions/{guidOrSlug}/prompt', {
        path: { guidOrSlug: action },
        body: { ...body, streaming: true },
      });
    } catch (error) {
      setState({ status: 'failed', text: '', message: (error as Error).message });
      return;
    }
    if (!('streaming_url' in answer)) {
      setState({ status: 'failed', text: '', message: 'The service answered the run without a stream' });
      return;
    }
    const startedAt = performance.now();
    let text = '';
    let firstTokenMs: number | undefined;
    const events = new EventSource(samePagePath(answer.streaming_url));
    source.current = events;
    setState({ status: 'streaming', text, dataGuid: answer.data_guid, startedAt });
    const fail = (message: string) => {
      events.close();
      setState({ status: 'failed', text, message, dataGuid: answer.data_guid });
    };
    events.onmessage = (event: MessageEvent<string>) => {
      if (event.data === 'BEGIN_STREAM') return;
      if (event.data === 'END_STREAM') {
        events.close();
        setState({
          status: 'done',
          text,
          dataGuid: answer.data_guid,
          firstTokenMs,
          totalMs: performance.now() - startedAt,
        });
        return;
      }
      const { token } = JSON.parse(event.data) as { token?: string };
      if (token === undefined) return;
      firstTokenMs ??= performance.now() - startedAt;
      text += token;
      setState({ status: 'streaming', text, dataGuid: answer.data_guid, startedAt, firstTokenMs });
    };
    events.addEventListener('error', (event) => {
      // The service's own `event: error` carries its message; a bare error is the connection.
      const data = (event as MessageEvent<string>).data;
      if (data) fail((JSON.parse(data) as { message?: string }).message ?? 'The run failed');
      else if (events.readyState === EventSource.CLOSED)
        fail('The stream connection closed before the run ended');
    });
  }, []);

  const fail = useCallback((message: string) => {
    source.current?.close();
    setState({ status: 'failed', text: '', message });
  }, []);

  return { state, start, fail };
}
