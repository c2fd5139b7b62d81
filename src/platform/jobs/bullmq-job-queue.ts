import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { JobDefinition, JobFailureHandler, JobProcessor, JobQueue } from './job-queue.js';

type Registration = {
  definition: JobDefinition<unknown>;
  processor: JobProcessor<unknown>;
  onFinalFailure?: JobFailureHandler<unknown>;
};

export type BullmqJobQueueOptions = {
  /** Namespaces the queue's keys: nodes that share a database share a prefix (and so the jobs). */
  prefix: string;
  concurrency?: number;
  /** How long stop() waits for running jobs before leaving them to be taken over. */
  drainTimeoutMs?: number;
  /**
   * A job holds its lock this long and renews it while its node lives; a crashed node's job is found
   * stalled by the next check after that and run again elsewhere (the visibility timeout).
   */
  lockDurationMs?: number;
};

/** BullMQ forbids ":" in custom job ids; our keys use it as a separator. */
const jobIdOf = (key: string) => key.replaceAll(':', '_');

const queueName = 'jobs';

/**
 * The scale-out job queue (DESIGN.md §1): jobs in Redis through BullMQ, one queue whose job names are
 * the catalogue's, retries with exponential backoff, per-attempt time limits, and idempotency keys as
 * job ids. Completed jobs are kept a day, so a key cannot run twice within it.
 */
export function createBullmqJobQueue(
  redisUrl: string,
  logger: Logger,
  options: BullmqJobQueueOptions,
): JobQueue {
  // BullMQ needs `maxRetriesPerRequest: null`: its blocking commands must wait out a reconnect.
  const connect = () => new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queueConnection = connect();
  const queue = new Queue(queueName, { connection: queueConnection, prefix: options.prefix });
  const registrations = new Map<string, Registration>();
  let worker: Worker | undefined;
  let workerConnection: Redis | undefined;

  async function run(job: Job): Promise<void> {
    const registration = registrations.get(job.name);
    if (!registration) throw new Error(`no processor is registered for job "${job.name}"`);
    const payload = registration.definition.payload.parse(job.data);
    const controller = new AbortController();
    let timeout: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        registration.processor(payload, {
          jobId: job.id!,
          attempt: job.attemptsMade + 1,
          signal: controller.signal,
        }),
        new Promise<never>((_, reject) => {
          timeout = setTimeout(() => {
            controller.abort();
            reject(new Error(`Job timed out after ${registration.definition.timeoutMs} ms`));
          }, registration.definition.timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timeout);
    }
  }

  return {
    register(definition, processor, onFinalFailure) {
      registrations.set(definition.name, {
        definition: definition as JobDefinition<unknown>,
        processor: processor as JobProcessor<unknown>,
        onFinalFailure: onFinalFailure as JobFailureHandler<unknown> | undefined,
      });
    },

    async enqueue(definition, payload, enqueueOptions = {}) {
      const parsed = definition.payload.parse(payload);
      const job = await queue.add(definition.name, parsed, {
        ...(enqueueOptions.key && { jobId: jobIdOf(enqueueOptions.key) }),
        attempts: definition.attempts,
        backoff: { type: 'exponential', delay: definition.backoffMs },
        ...(enqueueOptions.delayMs && { delay: enqueueOptions.delayMs }),
        removeOnComplete: { age: 24 * 60 * 60 },
        removeOnFail: { age: 7 * 24 * 60 * 60 },
      });
      return job.id!;
    },

    start() {
      if (worker) return;
      const lockDuration = options.lockDurationMs ?? 15_000;
      workerConnection = connect();
      worker = new Worker(queueName, run, {
        connection: workerConnection,
        prefix: options.prefix,
        concurrency: options.concurrency ?? 4,
        lockDuration,
        stalledInterval: Math.max(1_000, Math.round(lockDuration / 3)),
        maxStalledCount: 2,
      });
      worker.on('failed', (job, error) => {
        if (!job) return;
        const final = job.attemptsMade >= (job.opts.attempts ?? 1);
        if (!final) {
          logger.warn(
            { job: job.id, name: job.name, attempt: job.attemptsMade, err: error.message },
            'job attempt failed; retrying',
          );
          return;
        }
        logger.error({ job: job.id, name: job.name, err: error.message }, 'job failed for good');
        registrations
          .get(job.name)
          ?.onFinalFailure?.(job.data, error)
          .catch((failure: unknown) =>
            logger.error({ job: job.id, err: (failure as Error).message }, 'job failure handler failed'),
          );
      });
      worker.on('error', (error) => logger.error({ err: error.message }, 'job worker error'));
    },

    async stop() {
      if (worker) {
        const closing = worker.close();
        const drained = await Promise.race([
          closing.then(() => true),
          new Promise<boolean>((resolve) =>
            setTimeout(() => resolve(false), options.drainTimeoutMs ?? 10_000).unref(),
          ),
        ]);
        // Jobs still running are left locked; their locks lapse and another node takes them.
        if (!drained) await worker.close(true);
        await workerConnection?.quit().catch(() => undefined);
      }
      await queue.close();
      await queueConnection.quit().catch(() => undefined);
    },
  };
}
