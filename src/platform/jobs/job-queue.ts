import type { z } from 'zod';

/** A catalogue entry: what a job is called, what it carries, how often and how long it may run. */
export type JobDefinition<Payload> = {
  name: string;
  payload: z.ZodType<Payload>;
  /** Total attempts, the first included. */
  attempts: number;
  /** Delay before the second attempt; doubled for each further one. */
  backoffMs: number;
  /** An attempt running longer fails; a node that dies mid-job releases it after this, too. */
  timeoutMs: number;
};

export type JobContext = { jobId: string; attempt: number; signal: AbortSignal };

export type JobProcessor<Payload> = (payload: Payload, context: JobContext) => Promise<void>;

/** What a processor reports when the last attempt failed; services record it where users can read it. */
export type JobFailureHandler<Payload> = (payload: Payload, error: Error) => Promise<void>;

export type JobQueue = {
  register<Payload>(
    definition: JobDefinition<Payload>,
    processor: JobProcessor<Payload>,
    onFinalFailure?: JobFailureHandler<Payload>,
  ): void;
  enqueue<Payload>(
    definition: JobDefinition<Payload>,
    payload: Payload,
    options?: {
      delayMs?: number;
      /** An idempotency key: while a job with this key exists, enqueueing it again adds nothing. */
      key?: string;
    },
  ): Promise<string>;
  /** Begins taking jobs (worker role). Enqueueing works without it. */
  start(): void;
  /** Stops taking jobs and waits (bounded) for running ones. */
  stop(): Promise<void>;
};

export function defineJob<Payload>(definition: JobDefinition<Payload>): JobDefinition<Payload> {
  return definition;
}

export function backoffDelay(definition: { backoffMs: number }, attemptsMade: number): number {
  return definition.backoffMs * 2 ** Math.max(0, attemptsMade - 1);
}
