/**
 * When an attempt is tried again. A request that changes nothing (GET, PUT, DELETE: PUT and DELETE
 * are idempotent on Lectern) is retried after a `429`, a `5xx` or a broken connection. A POST may
 * have done its work before the answer was lost, so it is retried only when the service surely did
 * nothing — a `429`, a `503` (refused before any work) or a connection that was never made — unless
 * it carries an `Idempotency-Key`, with which the service answers a retry with the first answer.
 */
export type AttemptOutcome = { status: number } | { connectionError: unknown };

const connectionNeverMade = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isRetryable(method: string, idempotencyKey: boolean, outcome: AttemptOutcome): boolean {
  const safe = method !== 'POST' && method !== 'PATCH';
  if ('status' in outcome) {
    if (outcome.status === 429 || outcome.status === 503) return true;
    return outcome.status >= 500 && outcome.status !== 501 && (safe || idempotencyKey);
  }
  if (safe || idempotencyKey) return true;
  const code = errorCode(outcome.connectionError);
  return code !== undefined && connectionNeverMade.has(code);
}

/**
 * Milliseconds before attempt `attempt` (1 for the first retry): what the server asked for when it
 * said, else exponential from 250 ms with full jitter, capped at 8 s.
 */
export function retryDelayMs(attempt: number, serverAskedMs: number | undefined): number {
  if (serverAskedMs !== undefined) return Math.min(serverAskedMs, 60_000);
  const ceiling = Math.min(8_000, 250 * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Waits `milliseconds`, or rejects at once with the signal's reason when it aborts. */
export function wait(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    function onAbort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
