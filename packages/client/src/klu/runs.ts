import { streamTokens } from '../streams/token-stream.js';
import { type HttpClient, runIdempotencyKey } from '../transport/http.js';
import { runAnswerFromWire, type Wire } from './converters.js';
import { InvalidPromptResponseError, notFoundAs } from './errors.js';
import type {
  AsyncPromptResponse,
  AsyncPromptResultResponse,
  PromptResponse,
  StreamingPromptResponse,
  SyncPromptResponse,
} from './types.js';

/**
 * Starts a run (an Action's or an experiment's). With `idempotentRuns` each call sends an
 * `Idempotency-Key` of its own, so a retry after a lost answer gets the first answer back instead of
 * a second generation.
 */
export async function startRun(
  http: HttpClient,
  path: string,
  body: Wire,
  notFound: { instanceName: string; id: string },
): Promise<PromptResponse> {
  try {
    const answer = await http.request<Wire>({
      method: 'POST',
      path,
      body,
      idempotencyKey: runIdempotencyKey(http.options),
    });
    return runAnswerFromWire(answer.body) as unknown as PromptResponse;
  } catch (error) {
    throw notFoundAs(error, notFound.instanceName, notFound.id);
  }
}

function without<Record extends object>(record: Record, ...names: string[]): Record {
  const copy = { ...record } as { [name: string]: unknown };
  for (const name of names) delete copy[name];
  return copy as Record;
}

export function syncAnswer(answer: PromptResponse): SyncPromptResponse {
  return without(answer, 'resultUrl', 'streamingUrl');
}

export function asyncAnswer(answer: PromptResponse): AsyncPromptResponse {
  if (!answer.resultUrl) throw new InvalidPromptResponseError(answer.msg, 'resultUrl');
  return without(answer, 'streamingUrl') as AsyncPromptResponse;
}

/** The answer with `streamingData`: every token of the stream, none dropped, resumed if the connection breaks. */
export function streamingAnswer(http: HttpClient, answer: PromptResponse): StreamingPromptResponse {
  if (!answer.streamingUrl) throw new InvalidPromptResponseError(answer.msg, 'streamingUrl');
  return { ...without(answer, 'streamingUrl'), streamingData: streamTokens(http, answer.streamingUrl) };
}

/** Polls nothing: one read of a `result_url` (`{ msg, status }`). */
export async function readResult(http: HttpClient, resultUrl: string): Promise<AsyncPromptResultResponse> {
  return (await http.request<AsyncPromptResultResponse>({ method: 'GET', path: resultUrl })).body;
}
