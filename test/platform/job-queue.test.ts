import { randomUUID } from 'node:crypto';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createBullmqJobQueue } from '../../src/platform/jobs/bullmq-job-queue.js';
import { createDatabaseJobQueue } from '../../src/platform/jobs/database-job-queue.js';
import { defineJob, type JobQueue } from '../../src/platform/jobs/job-queue.js';
import { jobs } from '../../src/platform/jobs/tables.js';
import { uniqueJob, useDatabaseQueues } from '../helpers/database-queues.js';

type NodeOptions = { drainTimeoutMs?: number };

const databaseQueues = useDatabaseQueues();
const { logger } = databaseQueues;
const newDatabaseQueue = (options: NodeOptions = {}) => databaseQueues.newQueue(options);
const queues: JobQueue[] = [];
afterAll(async () => {
  await Promise.all(queues.map((queue) => queue.stop()));
});

const redisUrl = process.env.REDIS_URL || undefined;

/**
 * Queues made with one prefix stand for nodes sharing one database; a new prefix is a new cluster.
 * Locks last 30 s, so a job handed on within seconds was released, not left to lapse.
 */
function newBullmqQueue(prefix = `lectern-test-${randomUUID()}`, options: NodeOptions = {}) {
  const queue = createBullmqJobQueue(redisUrl!, logger, { prefix, lockDurationMs: 30_000, ...options });
  queues.push(queue);
  return queue;
}

/**
 * Each implementation makes clusters: a cluster makes nodes that share one queue. BullMQ runs with
 * REDIS_URL (CI's PostgreSQL pass); both keep the same promises.
 */
type NewCluster = () => (options?: NodeOptions) => JobQueue;
const implementations: [string, NewCluster][] = [
  ['database', () => newDatabaseQueue],
  ...(redisUrl
    ? [
        [
          'BullMQ',
          () => {
            const prefix = `lectern-test-${randomUUID()}`;
            return (options?: NodeOptions) => newBullmqQueue(prefix, options);
          },
        ] as [string, NewCluster],
      ]
    : []),
];

function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = async () => {
      if (await condition()) return resolve();
      if (Date.now() > deadline) return reject(new Error('condition not met in time'));
      setTimeout(check, 10);
    };
    void check();
  });
}

/** A one-attempt job of its own name that records each payload value it runs. */
function recordingJob(queue: JobQueue, prefix: string) {
  const definition = defineJob({
    name: `${prefix}-${randomUUID()}`,
    lane: 'interactive',
    payload: z.object({ value: z.number() }),
    attempts: 1,
    backoffMs: 10,
    timeoutMs: 5_000,
  });
  const seen: number[] = [];
  queue.register(definition, async (payload) => void seen.push(payload.value));
  return { definition, seen };
}
const jobRow = (id: string) => databaseQueues.jobRow(id);

describe.each(implementations)('%s job queue', (_name, newCluster) => {
  const newQueue = () => newCluster()();

  it('runs a job with its validated payload', async () => {
    const queue = newQueue();
    const { definition, seen } = recordingJob(queue, 'echo');
    queue.start();
    await queue.enqueue(definition, { value: 7 });
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual([7]);
  });

  it('retries with backoff, then reports the final failure once', async () => {
    const queue = newQueue();
    const definition = uniqueJob('flaky', { attempts: 3, backoffMs: 20 });
    const attempts: number[] = [];
    const failures: string[] = [];
    queue.register(
      definition,
      async (_payload, context) => {
        attempts.push(context.attempt);
        throw new Error(`boom ${context.attempt}`);
      },
      async (_payload, error) => void failures.push(error.message),
    );
    queue.start();
    const id = await queue.enqueue(definition, {});
    await waitFor(() => failures.length === 1);
    // Failed is final: no fourth attempt can follow.
    await waitFor(async () => (await queue.status(id)) === 'failed');
    expect(attempts).toEqual([1, 2, 3]);
    expect(failures).toEqual(['boom 3']);
  });

  it('succeeds on a later attempt without reporting a failure', async () => {
    const queue = newQueue();
    const definition = uniqueJob('second-time', { attempts: 2 });
    let calls = 0;
    let succeeded = false;
    const failures: string[] = [];
    queue.register(
      definition,
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('first fails');
        succeeded = true;
      },
      async (_payload, error) => void failures.push(error.message),
    );
    queue.start();
    await queue.enqueue(definition, {});
    await waitFor(() => succeeded);
    expect(calls).toBe(2);
    expect(failures).toEqual([]);
  });

  it('tells where a job stands: queued until a worker starts, running, then succeeded', async () => {
    const queue = newQueue();
    const definition = uniqueJob('watched', { attempts: 1 });
    // The queue marks a job running before its processor is called: finish only once it holds the
    // resolver, or the job would wait for ever (this raced on a loaded CI machine).
    let finish: (() => void) | undefined;
    queue.register(definition, () => new Promise<void>((resolve) => (finish = resolve)));
    const id = await queue.enqueue(definition, {});
    expect(await queue.status(id)).toBe('queued');
    expect(await queue.status(randomUUID())).toBeUndefined();
    queue.start();
    await waitFor(async () => finish !== undefined && (await queue.status(id)) === 'running');
    finish?.();
    await waitFor(async () => (await queue.status(id)) === 'succeeded');
  });

  it('tells where a keyed job stands by its key', async () => {
    const queue = newQueue();
    const definition = uniqueJob('keyed', { attempts: 1 });
    let finish: (() => void) | undefined;
    queue.register(definition, () => new Promise<void>((resolve) => (finish = resolve)));
    const key = `chain:${randomUUID()}:0`;
    await queue.enqueue(definition, {}, { key });
    expect(await queue.statusOfKey(key)).toBe('queued');
    expect(await queue.statusOfKey(`chain:${randomUUID()}:0`)).toBeUndefined();
    queue.start();
    await waitFor(async () => finish !== undefined && (await queue.statusOfKey(key)) === 'running');
    finish?.();
    await waitFor(async () => (await queue.statusOfKey(key)) === 'succeeded');
  });

  it('fails an attempt that runs past its timeout and aborts its signal', async () => {
    const queue = newQueue();
    const definition = uniqueJob('slow', { attempts: 1, timeoutMs: 100 });
    let aborted = false;
    const failures: string[] = [];
    queue.register(
      definition,
      async (_payload, context) => {
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
        aborted = true;
      },
      async (_payload, error) => void failures.push(error.message),
    );
    queue.start();
    await queue.enqueue(definition, {});
    await waitFor(() => failures.length === 1);
    expect(aborted).toBe(true);
    expect(failures[0]).toContain('timed out');
  });

  it('runs a delayed job only after its delay', async () => {
    const queue = newQueue();
    const { definition, seen } = recordingJob(queue, 'delayed');
    queue.start();
    const enqueuedAt = Date.now();
    let ranAt = 0;
    await queue.enqueue(definition, { value: 1 }, { delayMs: 600 });
    await waitFor(() => {
      if (seen.length === 1) ranAt = Date.now();
      return seen.length === 1;
    });
    expect(ranAt - enqueuedAt).toBeGreaterThanOrEqual(550);
  });

  it('refuses a payload that does not match the definition at enqueue time', async () => {
    const queue = newQueue();
    const definition = defineJob({
      name: `typed-${randomUUID()}`,
      lane: 'interactive',
      payload: z.object({ count: z.number() }),
      attempts: 1,
      backoffMs: 10,
      timeoutMs: 1_000,
    });
    await expect(queue.enqueue(definition, { count: 'many' } as never)).rejects.toThrow();
  });

  it('adds a job with a key once, however often it is enqueued', async () => {
    const queue = newQueue();
    const { definition, seen } = recordingJob(queue, 'keyed');
    const key = `workflow-block:${randomUUID()}:1`;
    const first = await queue.enqueue(definition, { value: 1 }, { key });
    expect(await queue.enqueue(definition, { value: 2 }, { key })).toBe(first);
    queue.start();
    await waitFor(async () => (await queue.status(first)) === 'succeeded');
    expect(await queue.enqueue(definition, { value: 3 }, { key })).toBe(first);
    // The one job with this key has succeeded, and succeeded is final: nothing else will run.
    expect(await queue.status(first)).toBe('succeeded');
    expect(seen).toEqual([1]);
  });

  it('gives a job that outlives the drain time back to the queue, where another node runs it afresh', async () => {
    const newNode = newCluster();
    const definition = uniqueJob('released', { attempts: 1, timeoutMs: 60_000 });
    const stopping = newNode({ drainTimeoutMs: 50 });
    let running = false;
    let aborted = false;
    stopping.register(definition, async (_payload, context) => {
      running = true;
      await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
      aborted = true;
    });
    stopping.start();
    await stopping.enqueue(definition, {});
    await waitFor(() => running);
    await stopping.stop();
    expect(aborted).toBe(true);

    const next = newNode();
    const attempts: number[] = [];
    const failures: string[] = [];
    next.register(
      definition,
      async (_payload, context) => void attempts.push(context.attempt),
      async (_payload, error) => void failures.push(error.message),
    );
    next.start();
    // Released, not failed: the one attempt the job has is still its own.
    await waitFor(() => attempts.length === 1, 5_000);
    expect(attempts).toEqual([1]);
    expect(failures).toEqual([]);
  });
});

describe('database job queue', () => {
  it('keeps each job as a row with its state, attempts and last error', async () => {
    const queue = newDatabaseQueue();
    const definition = uniqueJob('rows', { attempts: 2 });
    const done = recordingJob(queue, 'rows-done');
    queue.register(definition, async (_payload, context) => {
      throw new Error(`boom ${context.attempt}`);
    });
    queue.start();
    const failing = await queue.enqueue(definition, {});
    const succeeding = await queue.enqueue(done.definition, { value: 1 });
    await waitFor(async () => (await jobRow(failing)).status === 'failed');
    expect(await jobRow(failing)).toMatchObject({ attempts: 2, lastError: 'boom 2' });
    await waitFor(async () => (await jobRow(succeeding)).status === 'succeeded');
  });

  it('deletes finished jobs past their retention and keeps the rest', async () => {
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 60 * 60_000);
    const row = (status: 'queued' | 'succeeded' | 'failed', updatedAt: Date) => ({
      id: randomUUID(),
      name: `retention-${randomUUID()}`,
      payload: {},
      status,
      maxAttempts: 1,
      runAt: new Date(Date.now() + 60 * 60_000),
      updatedAt,
    });
    const expired = [row('succeeded', hoursAgo(25)), row('failed', hoursAgo(8 * 24))];
    const kept = [
      row('succeeded', hoursAgo(23)),
      row('failed', hoursAgo(6 * 24)),
      row('queued', hoursAgo(48)),
    ];
    await databaseQueues.handle.database.insert(jobs).values([...expired, ...kept]);
    const queue = createDatabaseJobQueue(databaseQueues.handle.database, logger, { sweepIntervalMs: 20 });
    queues.push(queue);
    queue.start();
    const remaining = async () =>
      (await databaseQueues.handle.database.select({ id: jobs.id }).from(jobs)).map((each) => each.id);
    await waitFor(async () => {
      const left = await remaining();
      return !expired.some((each) => left.includes(each.id));
    });
    const left = await remaining();
    expect(left).toEqual(expect.arrayContaining(kept.map((each) => each.id)));
    await queue.stop();
  });

  it('picks up a job left running by a node that died, once its lock has passed', async () => {
    const name = `orphan-${randomUUID()}`;
    const id = randomUUID();
    await databaseQueues.handle.database.insert(jobs).values({
      id,
      name,
      payload: { value: 'resumed' },
      status: 'running',
      attempts: 1,
      maxAttempts: 3,
      lockedUntil: new Date(Date.now() - 1_000),
    });
    const queue = newDatabaseQueue();
    const seen: string[] = [];
    queue.register(
      defineJob({
        name,
        lane: 'interactive',
        payload: z.object({ value: z.string() }),
        attempts: 3,
        backoffMs: 10,
        timeoutMs: 5_000,
      }),
      async (payload) => {
        seen.push(payload.value);
      },
    );
    queue.start();
    await waitFor(() => seen.length === 1);
    await waitFor(async () => (await jobRow(id)).status === 'succeeded');
    expect((await jobRow(id)).attempts).toBe(2);
  });
});

if (redisUrl) {
  describe('BullMQ job queue across nodes', () => {
    it('fails a job whose node died too often and reports it, so its result does not stay pending', async () => {
      const prefix = `lectern-test-${randomUUID()}`;
      const definition = uniqueJob('poison', { attempts: 3, timeoutMs: 60_000 });
      // Nodes that take the job and die with it: a raw BullMQ worker that never renews its locks
      // and whose processors never end. Its three slots are taken by the job's three stalls.
      let taken = 0;
      const connection = new Redis(redisUrl!, { maxRetriesPerRequest: null });
      const dying = new Worker(
        'jobs',
        async () => {
          taken += 1;
          await new Promise(() => undefined);
        },
        {
          connection,
          prefix,
          concurrency: 3,
          lockDuration: 300,
          skipLockRenewal: true,
          stalledInterval: 200,
          maxStalledCount: 2,
        },
      );
      try {
        const node = newBullmqQueue(prefix);
        const failures: string[] = [];
        const attempts: number[] = [];
        node.register(
          definition,
          async (_payload, context) => void attempts.push(context.attempt),
          async (_payload, error) => void failures.push(error.message),
        );
        await node.enqueue(definition, {});
        await waitFor(() => taken === 3);
        // The third stall marks the job failed; the next node to fetch it records the failure.
        node.start();
        await waitFor(() => failures.length === 1, 10_000);
        expect(failures[0]).toContain('stalled');
        expect(attempts).toEqual([]);
      } finally {
        await dying.close(true);
        await connection.quit();
      }
    });

    it('shares jobs between nodes of one prefix and keeps other prefixes apart', async () => {
      const prefix = `lectern-test-${randomUUID()}`;
      const producer = newBullmqQueue(prefix);
      const consumer = newBullmqQueue(prefix);
      const stranger = newBullmqQueue();
      const { definition, seen } = recordingJob(consumer, 'shared');
      const strangerSeen: number[] = [];
      stranger.register(definition, async (payload) => void strangerSeen.push(payload.value));
      stranger.start();
      await producer.enqueue(definition, { value: 5 });
      expect(seen).toEqual([]);
      consumer.start();
      await waitFor(() => seen.length === 1);
      expect(seen).toEqual([5]);
      expect(strangerSeen).toEqual([]);
    });
  });
}
