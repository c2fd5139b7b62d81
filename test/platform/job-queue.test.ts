import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DatabaseHandle } from '../../src/platform/database/connection.js';
import { jobs } from '../../src/platform/database/schema.js';
import { createDatabaseJobQueue } from '../../src/platform/jobs/database-job-queue.js';
import { defineJob, type JobQueue } from '../../src/platform/jobs/job-queue.js';
import { openTestDatabase } from '../helpers/test-app.js';

let handle: DatabaseHandle;
const queues: JobQueue[] = [];
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(async () => {
  await Promise.all(queues.map((queue) => queue.stop()));
  await handle.close();
});

/** Each test uses job names of its own, so queues sharing one database never take each other's jobs. */
function newQueue() {
  const queue = createDatabaseJobQueue(handle.database, logger, { pollIntervalMs: 20 });
  queues.push(queue);
  return queue;
}

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
    payload: z.object({ value: z.number() }),
    attempts: 1,
    backoffMs: 10,
    timeoutMs: 5_000,
  });
  const seen: number[] = [];
  queue.register(definition, async (payload) => void seen.push(payload.value));
  return { definition, seen };
}
const jobRow = async (id: string) => (await handle.database.select().from(jobs).where(eq(jobs.id, id)))[0]!;

describe('database job queue', () => {
  it('runs a job with its validated payload', async () => {
    const queue = newQueue();
    const { definition, seen } = recordingJob(queue, 'echo');
    queue.start();
    const id = await queue.enqueue(definition, { value: 7 });
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual([7]);
    await waitFor(async () => (await jobRow(id)).status === 'succeeded');
  });

  it('retries with backoff, then reports the final failure', async () => {
    const queue = newQueue();
    const definition = defineJob({
      name: `flaky-${randomUUID()}`,
      payload: z.object({}),
      attempts: 3,
      backoffMs: 20,
      timeoutMs: 5_000,
    });
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
    expect(attempts).toEqual([1, 2, 3]);
    expect(failures).toEqual(['boom 3']);
    const row = await jobRow(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 3, lastError: 'boom 3' });
  });

  it('succeeds on a later attempt', async () => {
    const queue = newQueue();
    const definition = defineJob({
      name: `second-time-${randomUUID()}`,
      payload: z.object({}),
      attempts: 2,
      backoffMs: 10,
      timeoutMs: 5_000,
    });
    let calls = 0;
    queue.register(definition, async () => {
      calls += 1;
      if (calls === 1) throw new Error('first fails');
    });
    queue.start();
    const id = await queue.enqueue(definition, {});
    await waitFor(async () => (await jobRow(id)).status === 'succeeded');
    expect(calls).toBe(2);
  });

  it('fails an attempt that runs past its timeout and aborts its signal', async () => {
    const queue = newQueue();
    const definition = defineJob({
      name: `slow-${randomUUID()}`,
      payload: z.object({}),
      attempts: 1,
      backoffMs: 10,
      timeoutMs: 100,
    });
    let aborted = false;
    queue.register(definition, async (_payload, context) => {
      await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
      aborted = true;
    });
    queue.start();
    const id = await queue.enqueue(definition, {});
    await waitFor(async () => (await jobRow(id)).status === 'failed');
    expect(aborted).toBe(true);
    expect((await jobRow(id)).lastError).toContain('timed out');
  });

  it('picks up a job left running by a node that died, once its lock has passed', async () => {
    const name = `orphan-${randomUUID()}`;
    const id = randomUUID();
    await handle.database.insert(jobs).values({
      id,
      name,
      payload: { value: 'resumed' },
      status: 'running',
      attempts: 1,
      maxAttempts: 3,
      lockedUntil: new Date(Date.now() - 1_000),
    });
    const queue = newQueue();
    const seen: string[] = [];
    queue.register(
      defineJob({
        name,
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

  it('refuses a payload that does not match the definition at enqueue time', async () => {
    const queue = newQueue();
    const definition = defineJob({
      name: `typed-${randomUUID()}`,
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
    const key = `key-${randomUUID()}`;
    const first = await queue.enqueue(definition, { value: 1 }, { key });
    const again = await queue.enqueue(definition, { value: 2 }, { key });
    expect(again).toBe(first);
    queue.start();
    await waitFor(async () => (await jobRow(first)).status === 'succeeded');
    expect(await queue.enqueue(definition, { value: 3 }, { key })).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual([1]);
  });
});
