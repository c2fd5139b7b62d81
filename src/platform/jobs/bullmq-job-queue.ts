import { type Job, Queue, WaitingError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { closeRedis, connectRedis, throttledErrorLog, whenFirstConnected } from '../redis-connection.js';
import {
  type JobQueue,
  type JobRegistration,
  JobReleasedError,
  jobRetention,
  reportFinalFailure,
  runAttempt,
  toRegistration,
} from './job-queue.js';

/** An attempt this node is running, with what it needs to give the job back on shutdown. */
type RunningAttempt = { release: AbortController };

export type BullmqJobQueueOptions = {
  /** Namespaces the queue's keys: nodes that share a database share a prefix (and so the jobs). */
  prefix: string;
  concurrency?: number;
  /** How long stop() waits for running jobs before giving them back to the queue for another node. */
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
 * The scale-out job queue (docs/architecture.md#platform-parts): jobs in Redis through BullMQ, one queue whose job names are
 * the catalogue's, retries with exponential backoff, per-attempt time limits, and idempotency keys as
 * job ids.
 */
export function createBullmqJobQueue(
  redisUrl: string,
  logger: Logger,
  options: BullmqJobQueueOptions,
): JobQueue {
  // BullMQ needs `maxRetriesPerRequest: null`: its blocking commands must wait out a reconnect.
  const connect = (role: string) => connectRedis(redisUrl, { maxRetriesPerRequest: null }, logger, role);
  // Adding a job fails at once while Redis is away (no offline queue), so a request that queues one
  // answers 503 rather than waiting for Redis; BullMQ's guide recommends this for producers.
  const queueConnection = connectRedis(redisUrl, { enableOfflineQueue: false }, logger, 'job queue');
  const queue = new Queue(queueName, { connection: queueConnection, prefix: options.prefix });
  // The connection's own listener logs Redis errors; BullMQ passes them on here as well.
  queue.on('error', () => undefined);
  const registrations = new Map<string, JobRegistration>();
  const running = new Map<string, RunningAttempt>();
  let stopping = false;
  let worker: Worker | undefined;
  let workerConnection: Redis | undefined;

  async function attempt(job: Job, token: string | undefined, release: AbortSignal): Promise<void> {
    const registration = registrations.get(job.name);
    if (!registration) throw new Error(`no processor is registered for job "${job.name}"`);
    try {
      if (release.aborted) throw new JobReleasedError();
      await runAttempt(
        registration,
        job.data,
        { jobId: job.id!, attempt: job.attemptsMade + 1, release },
        logger,
      );
    } catch (error) {
      // Released: the job is back in the wait list already. WaitingError tells BullMQ that this
      // attempt has no outcome to record, so no attempt is spent and no failure reported.
      if (error instanceof JobReleasedError) {
        await giveBack(job, token);
        throw new WaitingError();
      }
      throw error;
    }
  }

  function run(job: Job, token?: string): Promise<void> {
    const release = new AbortController();
    // A job fetched just as the node began stopping is handed straight back.
    if (stopping) release.abort();
    const done = attempt(job, token, release.signal).finally(() => running.delete(job.id!));
    running.set(job.id!, { release });
    return done;
  }

  /** Puts a job this node holds back in the wait list at once, instead of when its lock lapses. */
  async function giveBack(job: Job, token: string | undefined): Promise<void> {
    try {
      if (token) await job.moveToWait(token);
    } catch (error) {
      // Its lock is gone already: the stalled check hands it on instead.
      logger.warn({ job: job.id, err: (error as Error).message }, 'could not release a running job');
    }
  }

  function onFailed(job: Job | undefined, error: Error) {
    if (!job) return;
    // BullMQ sets finishedOn only when the job will not run again: its attempts are spent, or it
    // stalled (its node died) more often than maxStalledCount allows.
    if (job.finishedOn === undefined) {
      logger.warn(
        { job: job.id, name: job.name, attempt: job.attemptsMade, err: error.message },
        'job attempt failed; retrying',
      );
      return;
    }
    void reportFinalFailure(
      registrations.get(job.name),
      { id: job.id!, name: job.name, payload: job.data },
      error,
      logger,
    );
  }

  return {
    register(definition, processor, onFinalFailure) {
      registrations.set(definition.name, toRegistration(definition, processor, onFinalFailure));
    },

    async enqueue(definition, payload, enqueueOptions = {}) {
      const parsed = definition.payload.parse(payload);
      await whenFirstConnected(queueConnection, 2_000);
      // BullMQ would wait for a connection that never came up; refuse rather than hang the request.
      if (queueConnection.status !== 'ready')
        throw new Error(`Redis is not connected (${queueConnection.status})`);
      const job = await queue.add(definition.name, parsed, {
        ...(enqueueOptions.key && { jobId: jobIdOf(enqueueOptions.key) }),
        attempts: definition.attempts,
        backoff: { type: 'exponential', delay: definition.backoffMs },
        ...(enqueueOptions.delayMs && { delay: enqueueOptions.delayMs }),
        // BullMQ counts these ages in seconds.
        removeOnComplete: { age: jobRetention.succeededMs / 1000 },
        removeOnFail: { age: jobRetention.failedMs / 1000 },
      });
      return job.id!;
    },

    async status(jobId) {
      const state = await queue.getJobState(jobId);
      if (state === 'unknown') return undefined;
      if (state === 'active') return 'running';
      if (state === 'completed') return 'succeeded';
      if (state === 'failed') return 'failed';
      // waiting, delayed (a retry's backoff included), prioritized, waiting-children
      return 'queued';
    },

    start() {
      if (worker) return;
      const lockDuration = options.lockDurationMs ?? 15_000;
      workerConnection = connect('job worker');
      worker = new Worker(queueName, run, {
        connection: workerConnection,
        prefix: options.prefix,
        concurrency: options.concurrency ?? 4,
        lockDuration,
        stalledInterval: Math.max(1_000, Math.round(lockDuration / 3)),
        // A job whose node died a third time is failed rather than passed on for ever (a poison job).
        maxStalledCount: 2,
      });
      worker.on('failed', onFailed);
      // BullMQ repeats its connections' errors here while Redis is away, hence the throttle.
      worker.on('error', throttledErrorLog(logger, 'job worker error', {}));
    },

    async stop() {
      stopping = true;
      if (worker && workerConnection?.status !== 'ready') {
        // Redis is away: nothing can be handed back or recorded, and BullMQ's close() would wait for
        // it. The running jobs' locks lapse once Redis returns, and another node takes them then.
        workerConnection?.disconnect();
        await worker.close(true);
      } else if (worker) {
        // close() stops fetching at once (it cuts the blocking connection) and then waits for the
        // running jobs: they get their drain time, and what is left is handed back to the queue.
        const closing = worker.close();
        const drained = await Promise.race([
          closing.then(() => true),
          new Promise<boolean>((resolve) =>
            setTimeout(() => resolve(false), options.drainTimeoutMs ?? 10_000).unref(),
          ),
        ]);
        if (!drained) {
          for (const each of running.values()) each.release.abort();
          await closing;
        }
        if (workerConnection) await closeRedis(workerConnection);
      }
      await queue.close();
      await closeRedis(queueConnection);
    },
  };
}
