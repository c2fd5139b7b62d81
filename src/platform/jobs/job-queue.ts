import type { Logger } from 'pino';
import type { z } from 'zod';
import { asBulkWork } from '../database/bulk-work.js';

/**
 * Which capacity a job runs on. Interactive work (an async run, a workflow block) is what a person or
 * an application is waiting for; bulk work (embedding, Context Source indexing) can take minutes;
 * evaluation items (one job per dataset item of an evaluation run) come thousands at a time.
 * Each lane has slots of its own, so no amount of bulk work delays an interactive job, and within a
 * lane the workspaces share the slots fairly (docs/architecture.md#jobs).
 */
export type JobLane = 'interactive' | 'bulk' | 'evaluation';

export const jobLanes: readonly JobLane[] = ['interactive', 'bulk', 'evaluation'];

/** How many jobs of each lane one worker node runs at once. */
export type JobSlots = Record<JobLane, number>;

export const defaultJobSlots: JobSlots = { interactive: 4, bulk: 2, evaluation: 8 };

/** A catalogue entry: what a job is called, what it carries, how often and how long it may run. */
export type JobDefinition<Payload, Name extends string = string> = {
  name: Name;
  lane: JobLane;
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

/**
 * What runs one job kind: its processor, and what records a job's final failure where users read it.
 * Each feature that has jobs offers its handlers; `src/jobs.ts` wires every job kind to one.
 */
export type JobHandler<Payload> = {
  process: JobProcessor<Payload>;
  onFinalFailure?: JobFailureHandler<Payload>;
};

/**
 * Where a job stands: queued (waiting, delayed, or between attempts), running, succeeded, or failed
 * with no attempt left. Both end states are final: such a job never runs again.
 */
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

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
  /** Several jobs of one definition at once (one statement or round trip); their ids in order. */
  enqueueMany<Payload>(definition: JobDefinition<Payload>, payloads: Payload[]): Promise<string[]>;
  /** The job's status, or undefined when no such job is kept (never added, or past its retention). */
  status(jobId: string): Promise<JobStatus | undefined>;
  /** The status of the job enqueued with this `key`, or undefined when no such job is kept. */
  statusOfKey(key: string): Promise<JobStatus | undefined>;
  /** Begins taking jobs (worker role). Enqueueing works without it. */
  start(): void;
  /** Stops taking jobs and waits (bounded) for running ones. */
  stop(): Promise<void>;
};

/** A job kind; its name stays a literal type, so the catalogue (src/jobs.ts) is keyed by it. */
export function defineJob<Payload, const Name extends string>(
  definition: JobDefinition<Payload, Name>,
): JobDefinition<Payload, Name> {
  return definition;
}

/**
 * Whose share of a lane a job uses: the workspace its payload names. Every job of the catalogue
 * carries `workspaceId`; a payload without one shares a single group.
 */
export function fairShareKey(payload: unknown): string {
  const workspaceId = (payload as { workspaceId?: unknown } | null)?.workspaceId;
  return typeof workspaceId === 'string' ? workspaceId : '';
}

/**
 * How long finished jobs are kept. A key cannot be enqueued again while its job is kept, and a day
 * outlasts any retry chain of the catalogue (at most 4 attempts of 10 minutes); failed jobs are kept
 * a week for whoever investigates them.
 */
export const jobRetention = { succeededMs: 24 * 60 * 60_000, failedMs: 7 * 24 * 60 * 60_000 };

/** What a queue keeps of one registered job name. */
export type JobRegistration = {
  definition: JobDefinition<unknown>;
  processor: JobProcessor<unknown>;
  onFinalFailure?: JobFailureHandler<unknown>;
};

export function toRegistration<Payload>(
  definition: JobDefinition<Payload>,
  processor: JobProcessor<Payload>,
  onFinalFailure?: JobFailureHandler<Payload>,
): JobRegistration {
  return {
    definition: definition as JobDefinition<unknown>,
    processor: processor as JobProcessor<unknown>,
    onFinalFailure: onFinalFailure as JobFailureHandler<unknown> | undefined,
  };
}

/** The last attempt failed: log it and let the feature record it where users read it (a FAILED result). */
export async function reportFinalFailure(
  registration: JobRegistration | undefined,
  job: { id: string; name: string; payload: unknown },
  error: Error,
  logger: Logger,
): Promise<void> {
  logger.error({ job: job.id, name: job.name, err: error.message }, 'job failed for good');
  await registration?.onFinalFailure?.(job.payload, error).catch((failure: unknown) => {
    logger.error({ job: job.id, err: (failure as Error).message }, 'job failure handler failed');
  });
}

/** Why an attempt stopped without an outcome: its node is shutting down and gave the job back. */
export class JobReleasedError extends Error {
  constructor() {
    super('The job was released to another node');
    this.name = 'JobReleasedError';
  }
}

/**
 * One attempt of a job, as every queue runs it: the stored payload is checked against the definition
 * again (it may have been written by an older release), and an attempt that outlives the definition's
 * time limit fails and has its signal aborted, so a stuck provider call cannot hold a job forever.
 * `release` ends the attempt the same way, with a JobReleasedError, when a stopping node gives it back.
 */
export async function runAttempt(
  registration: JobRegistration,
  payload: unknown,
  context: { jobId: string; attempt: number; release?: AbortSignal },
  logger: Logger,
): Promise<void> {
  const { definition, processor } = registration;
  const parsed = definition.payload.parse(payload);
  // Debug level: a busy worker starts many; this tells which node ran which attempt when it matters.
  logger.debug(
    { job: context.jobId, name: definition.name, attempt: context.attempt },
    'job attempt started',
  );
  const controller = new AbortController();
  let timeout: NodeJS.Timeout | undefined;
  let onRelease: (() => void) | undefined;
  try {
    const run = () =>
      processor(parsed, { jobId: context.jobId, attempt: context.attempt, signal: controller.signal });
    await Promise.race([
      // A bulk job's statements wait behind interactive ones on the embedded database.
      definition.lane === 'bulk' ? asBulkWork(run) : run(),
      new Promise<never>((_, reject) => {
        timeout = setTimeout(() => {
          controller.abort();
          reject(new Error(`Job timed out after ${definition.timeoutMs} ms`));
        }, definition.timeoutMs);
        onRelease = () => {
          controller.abort();
          reject(new JobReleasedError());
        };
        if (context.release?.aborted) onRelease();
        context.release?.addEventListener('abort', onRelease, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timeout);
    if (onRelease) context.release?.removeEventListener('abort', onRelease);
  }
}

export function backoffDelay(definition: { backoffMs: number }, attemptsMade: number): number {
  return definition.backoffMs * 2 ** Math.max(0, attemptsMade - 1);
}
