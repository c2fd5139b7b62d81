import { createHash } from 'node:crypto';
import { AppError } from '../../../errors.js';
import type { IdempotentRequestRepository } from './idempotent-request-repository.js';

/** A key is remembered a day: long enough for any client's retries. */
const keyLifetimeMs = 24 * 60 * 60 * 1000;
/** A first request still unanswered after this is taken as dead (a run's job times out at 10 minutes). */
const abandonedAfterMs = 15 * 60 * 1000;
/** Expired keys are swept at most this often, by whichever request comes. */
const sweepIntervalMs = 60 * 60 * 1000;

/**
 * Run requests made safe to retry with an `Idempotency-Key` header: the first request with a key runs;
 * a retry with the same key and the same request answers what the first answered (the same
 * `data_guid`, `streaming_url` or `result_url`) and runs nothing. A request that failed answered no
 * generation, so its key is forgotten and a retry runs again.
 */
export interface IdempotentRequests {
  /** `work`'s answer, once per key; without a key, `work` just runs. */
  once<Answer>(
    workspaceId: string,
    key: string | undefined,
    request: unknown,
    work: () => Promise<Answer>,
  ): Promise<Answer>;
}

export function createIdempotentRequests(dependencies: {
  repository: IdempotentRequestRepository;
  /** The clock, in epoch milliseconds (a test moves it past a key's day). */
  now?: () => number;
}): IdempotentRequests {
  const { repository, now = () => Date.now() } = dependencies;
  let lastSweep = 0;

  async function sweepNow() {
    if (now() - lastSweep < sweepIntervalMs) return;
    lastSweep = now();
    await repository.sweep(new Date(now() - keyLifetimeMs));
  }

  async function claim(
    workspaceId: string,
    key: string,
    fingerprint: string,
  ): Promise<{ response: unknown } | undefined> {
    if (await repository.claim(workspaceId, key, fingerprint)) return undefined;
    const stored = await repository.find(workspaceId, key);
    const stale = {
      runningBefore: new Date(now() - abandonedAfterMs),
      answeredBefore: new Date(now() - keyLifetimeMs),
      now: new Date(now()),
    };
    if (!stored || (await repository.takeOver(workspaceId, key, fingerprint, stale))) {
      // Gone meanwhile (its request failed), or abandoned or expired and now ours.
      return stored ? undefined : claim(workspaceId, key, fingerprint);
    }
    if (stored.fingerprint !== fingerprint) {
      throw new AppError(
        422,
        'idempotency_key_reused',
        'Idempotency-Key: this key was used with another request; use a new key for each request',
      );
    }
    if (stored.response === null) {
      throw new AppError(
        409,
        'idempotency_key_in_use',
        'Idempotency-Key: the first request with this key is still running; retry when it has answered',
      );
    }
    return { response: stored.response };
  }

  return {
    async once<Answer>(
      workspaceId: string,
      key: string | undefined,
      request: unknown,
      work: () => Promise<Answer>,
    ): Promise<Answer> {
      if (key === undefined) return work();
      await sweepNow();
      const fingerprint = createHash('sha256').update(JSON.stringify(request)).digest('hex');
      const earlier = await claim(workspaceId, key, fingerprint);
      if (earlier) return earlier.response as Answer;
      let answer: Answer;
      try {
        answer = await work();
      } catch (error) {
        // The request's own error is what the client needs; a key left behind expires as abandoned.
        await repository.release(workspaceId, key).catch(() => undefined);
        throw error;
      }
      await repository.answer(workspaceId, key, answer);
      return answer;
    },
  };
}
