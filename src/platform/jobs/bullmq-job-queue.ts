import { randomUUID } from 'node:crypto';
import { type Job, Queue, WaitingError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { closeRedis, connectRedis, throttledErrorLog, whenFirstConnected } from '../redis-connection.js';
import {
  defaultJobSlots,
  fairShareKey,
  type JobDefinition,
  type JobLane,
  type JobQueue,
  type JobRegistration,
  JobReleasedError,
  type JobSlots,
  type JobStatus,
  jobLanes,
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
  /** Jobs of each lane this node runs at once. */
  slots?: Partial<JobSlots>;
  /** How long stop() waits for running jobs before giving them back to the queue for another node. */
  drainTimeoutMs?: number;
  /**
   * A job holds its lock this long and renews it while its node lives; a crashed node's job is found
   * stalled by the next check after that and run again elsewhere (the visibility timeout).
   */
  lockDurationMs?: number;
  /**
   * Defers queueing until the caller's transaction has committed (TransactionScope.afterCommit): a
   * worker on another node must not take a job for a row it cannot see yet.
   */
  afterCommit?: (callback: () => Promise<unknown>) => Promise<void>;
};

/** BullMQ forbids ":" in custom job ids; our keys use it as a separator. */
const jobIdOf = (key: string) => key.replaceAll(':', '_');

/** One BullMQ queue per lane; the interactive one keeps the name of the single queue of old. */
const queueNames: Record<JobLane, string> = {
  interactive: 'jobs',
  bulk: 'jobs-bulk',
  evaluation: 'jobs-evaluation',
};

/** BullMQ's largest priority (a lower number runs first). */
const lowestPriority = 2_097_151;

/** A workspace's set of waiting job ids is forgotten after a day without adds (ids of removed jobs). */
const waitingSetLifetimeMs = 24 * 60 * 60_000;

/**
 * Fair dequeuing on BullMQ's priorities: a job's priority is its place among its workspace's waiting
 * jobs of the lane (1 for the first), so the queue hands out every workspace's first job, then every
 * workspace's second, and so on, FIFO between equals. A workspace with 10,000 waiting jobs takes turns
 * with one that has a single job. Each workspace's waiting job ids are a Redis set: an id is added
 * when the job is (the same key twice counts once) and taken out when a worker starts it.
 */
function waitingSetKey(prefix: string, lane: JobLane, workspace: string): string {
  return `${prefix}:fair-share:${lane}:${workspace}`;
}

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
  const queues = new Map(
    jobLanes.map((lane) => {
      const queue = new Queue(queueNames[lane], { connection: queueConnection, prefix: options.prefix });
      // The connection's own listener logs Redis errors; BullMQ passes them on here as well.
      queue.on('error', () => undefined);
      return [lane, queue] as const;
    }),
  );
  const slots: JobSlots = { ...defaultJobSlots, ...options.slots };
  const registrations = new Map<string, JobRegistration>();
  const running = new Map<string, RunningAttempt>();
  let stopping = false;
  const workers: Worker[] = [];
  let workerConnection: Redis | undefined;

  /** Notes new waiting jobs of a workspace; the priority of each, in order (see waitingSetKey). */
  async function fairPriorities(lane: JobLane, workspace: string, jobIds: string[]): Promise<number[]> {
    const key = waitingSetKey(options.prefix, lane, workspace);
    const answers = await queueConnection
      .multi()
      .sadd(key, ...jobIds)
      .pexpire(key, waitingSetLifetimeMs)
      .scard(key)
      .exec();
    const waiting = Number(answers?.[2]?.[1] ?? jobIds.length);
    const first = Math.max(1, waiting - jobIds.length + 1);
    return jobIds.map((_, index) => Math.min(first + index, lowestPriority));
  }

  /** Refuses at once while Redis is away: BullMQ would wait for a connection that never came up. */
  async function requireConnection(): Promise<void> {
    await whenFirstConnected(queueConnection, 2_000);
    if (queueConnection.status !== 'ready')
      throw new Error(`Redis is not connected (${queueConnection.status})`);
  }

  function jobOptions(definition: JobDefinition<unknown>, jobId: string, priority: number) {
    return {
      jobId,
      priority,
      attempts: definition.attempts,
      backoff: { type: 'exponential', delay: definition.backoffMs },
      // BullMQ counts these ages in seconds.
      removeOnComplete: { age: jobRetention.succeededMs / 1000 },
      removeOnFail: { age: jobRetention.failedMs / 1000 },
    };
  }

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

  function run(lane: JobLane, job: Job, token?: string): Promise<void> {
    // No longer waiting: the workspace's later jobs move up one place (a failure here only skews order).
    void queueConnection
      .srem(waitingSetKey(options.prefix, lane, fairShareKey(job.data)), job.id!)
      .catch(() => undefined);
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

  const whenCommitted = async (add: () => Promise<unknown>) => {
    if (options.afterCommit) await options.afterCommit(add);
    else await add();
  };

  /** Where a job stands, from BullMQ's state in whichever lane's queue holds it. */
  async function jobStatus(jobId: string): Promise<JobStatus | undefined> {
    const states = await Promise.all([...queues.values()].map((queue) => queue.getJobState(jobId)));
    const state = states.find((each) => each !== 'unknown') ?? 'unknown';
    if (state === 'unknown') return undefined;
    if (state === 'active') return 'running';
    if (state === 'completed') return 'succeeded';
    if (state === 'failed') return 'failed';
    // waiting, delayed (a retry's backoff included), prioritized, waiting-children
    return 'queued';
  }

  return {
    register(definition, processor, onFinalFailure) {
      registrations.set(definition.name, toRegistration(definition, processor, onFinalFailure));
    },

    async enqueue(definition, payload, enqueueOptions = {}) {
      const parsed = definition.payload.parse(payload);
      await requireConnection();
      const jobId = enqueueOptions.key ? jobIdOf(enqueueOptions.key) : randomUUID();
      const [priority] = await fairPriorities(definition.lane, fairShareKey(parsed), [jobId]);
      await whenCommitted(() =>
        queues.get(definition.lane)!.add(definition.name, parsed, {
          ...jobOptions(definition as JobDefinition<unknown>, jobId, priority!),
          ...(enqueueOptions.delayMs && { delay: enqueueOptions.delayMs }),
        }),
      );
      return jobId;
    },

    async enqueueMany(definition, payloads) {
      if (payloads.length === 0) return [];
      const parsed = payloads.map((payload) => definition.payload.parse(payload));
      await requireConnection();
      const jobIds = parsed.map(() => randomUUID());
      // The catalogue queues many jobs at once for one workspace only (a Document load's batches).
      const byWorkspace = new Map<string, number[]>();
      for (const [index, payload] of parsed.entries()) {
        const workspace = fairShareKey(payload);
        const indexes = byWorkspace.get(workspace) ?? [];
        indexes.push(index);
        byWorkspace.set(workspace, indexes);
      }
      const priorities: number[] = [];
      for (const [workspace, indexes] of byWorkspace) {
        const ids = indexes.map((index) => jobIds[index]!);
        const assigned = await fairPriorities(definition.lane, workspace, ids);
        for (const [position, index] of indexes.entries()) priorities[index] = assigned[position]!;
      }
      await whenCommitted(() =>
        queues.get(definition.lane)!.addBulk(
          parsed.map((payload, index) => ({
            name: definition.name,
            data: payload,
            opts: jobOptions(definition as JobDefinition<unknown>, jobIds[index]!, priorities[index]!),
          })),
        ),
      );
      return jobIds;
    },

    status: jobStatus,
    statusOfKey: (key) => jobStatus(jobIdOf(key)),

    start() {
      if (workers.length > 0) return;
      const lockDuration = options.lockDurationMs ?? 15_000;
      workerConnection = connect('job worker');
      // One worker per lane, each with the lane's slots: bulk work never takes an interactive slot.
      for (const lane of jobLanes) {
        const worker = new Worker(queueNames[lane], (job, token) => run(lane, job, token), {
          connection: workerConnection,
          prefix: options.prefix,
          concurrency: slots[lane],
          lockDuration,
          stalledInterval: Math.max(1_000, Math.round(lockDuration / 3)),
          // A job whose node died a third time is failed rather than passed on for ever (a poison job).
          maxStalledCount: 2,
        });
        worker.on('failed', onFailed);
        // BullMQ repeats its connections' errors here while Redis is away, hence the throttle.
        worker.on('error', throttledErrorLog(logger, 'job worker error', {}));
        workers.push(worker);
      }
    },

    async stop() {
      stopping = true;
      if (workers.length > 0 && workerConnection?.status !== 'ready') {
        // Redis is away: nothing can be handed back or recorded, and BullMQ's close() would wait for
        // it. The running jobs' locks lapse once Redis returns, and another node takes them then.
        workerConnection?.disconnect();
        await Promise.all(workers.map((worker) => worker.close(true)));
      } else if (workers.length > 0) {
        // close() stops fetching at once (it cuts the blocking connection) and then waits for the
        // running jobs: they get their drain time, and what is left is handed back to the queue.
        const closing = Promise.all(workers.map((worker) => worker.close()));
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
      await Promise.all([...queues.values()].map((queue) => queue.close()));
      await closeRedis(queueConnection);
    },
  };
}
