import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DatabaseHandle } from '../../src/platform/database/connection.js';
import { jobs } from '../../src/platform/database/schema.js';
import { createDatabaseJobQueue } from '../../src/platform/jobs/database-job-queue.js';
import { defineJob, type JobQueue } from '../../src/platform/jobs/job-queue.js';
import { eventually, openTestDatabase } from '../helpers/test-app.js';

// Findings 3 and 7: a job ends even when its bookkeeping cannot store the error, a lapsed job is
// never taken past its attempt limit, and a node never takes a job it is still running.

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

function newQueue(options: { exclusive?: boolean } = {}) {
  const queue = createDatabaseJobQueue(handle.database, logger, { pollIntervalMs: 20, ...options });
  queues.push(queue);
  return queue;
}

const uniqueJob = (attempts: number) =>
  defineJob({
    name: `finality-${randomUUID()}`,
    payload: z.object({}),
    attempts,
    backoffMs: 10,
    timeoutMs: 60_000,
  });

async function rowOf(id: string) {
  const [row] = await handle.database.select().from(jobs).where(eq(jobs.id, id));
  return row!;
}

/** Waits until `condition` holds (eventually() waits for a value; these wait for a state). */
const until = (condition: () => boolean | Promise<boolean>) =>
  eventually(async () => ((await condition()) ? true : undefined));

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe('database job queue finality', () => {
  it('ends a job whose error text PostgreSQL cannot store (NUL), after its attempts, and reports it', async () => {
    const queue = newQueue();
    const definition = uniqueJob(2);
    let calls = 0;
    const finalFailures: string[] = [];
    queue.register(
      definition,
      async () => {
        calls += 1;
        // What a failed INSERT of a model's output says: the statement and its parameters, NUL and all.
        throw new Error('Failed query: insert into "generations" params: answer\u0000with NUL \ud800');
      },
      async (_payload, error) => {
        finalFailures.push(error.message);
      },
    );
    const id = await queue.enqueue(definition, {});
    queue.start();
    await until(async () => (await rowOf(id)).status === 'failed');
    expect(calls).toBe(2);
    expect(finalFailures).toHaveLength(1);
    const row = await rowOf(id);
    expect(row.lastError).toContain('answerwith NUL');
    expect(row.lastError).not.toContain('\u0000');
    expect(row.attempts).toBe(2);
  });

  it('never takes a lapsed job past its attempt limit; it fails it and reports the final failure', async () => {
    const definition = uniqueJob(3);
    const id = randomUUID();
    // A job whose third and last attempt's node died (or froze) long ago.
    await handle.database.insert(jobs).values({
      id,
      name: definition.name,
      payload: {},
      status: 'running',
      attempts: 3,
      maxAttempts: 3,
      runAt: new Date(Date.now() - 60_000),
      lockedUntil: new Date(Date.now() - 30_000),
    });
    const queue = newQueue();
    let calls = 0;
    const finalFailures: string[] = [];
    queue.register(
      definition,
      async () => {
        calls += 1;
      },
      async (_payload, error) => {
        finalFailures.push(error.message);
      },
    );
    queue.start();
    await until(async () => (await rowOf(id)).status === 'failed');
    expect(calls).toBe(0);
    expect((await rowOf(id)).attempts).toBe(3);
    expect(finalFailures).toEqual([expect.stringMatching(/no attempts remain/)]);
  });

  it('also after a restart of an exclusive (embedded) node, which retries only jobs with attempts left', async () => {
    const definition = uniqueJob(2);
    const exhausted = randomUUID();
    const retryable = randomUUID();
    for (const [id, attempts] of [
      [exhausted, 2],
      [retryable, 1],
    ] as const) {
      await handle.database.insert(jobs).values({
        id,
        name: definition.name,
        payload: {},
        status: 'running',
        attempts,
        maxAttempts: 2,
        runAt: new Date(),
        lockedUntil: new Date(Date.now() + 60_000),
      });
    }
    const queue = newQueue({ exclusive: true });
    const ran: string[] = [];
    queue.register(definition, async (_payload, context) => {
      ran.push(context.jobId);
    });
    queue.start();
    await until(
      async () =>
        (await rowOf(exhausted)).status === 'failed' && (await rowOf(retryable)).status === 'succeeded',
    );
    expect(ran).toEqual([retryable]);
  });

  it('never takes a job it is itself running, even when its heartbeat could not renew the lock', async () => {
    const queue = newQueue();
    const definition = uniqueJob(3);
    let starts = 0;
    let finish: () => void = () => undefined;
    queue.register(definition, async () => {
      starts += 1;
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
    });
    const id = await queue.enqueue(definition, {});
    queue.start();
    await until(() => starts === 1);
    // What a main thread stalled past the lock leaves behind: the lock has lapsed while the job runs.
    await handle.database.execute(
      sql`UPDATE ${jobs} SET locked_until = now() - interval '1 second' WHERE id = ${id}`,
    );
    await queue.enqueue(uniqueJob(1), {}); // wakes the poller
    await sleep(300);
    expect(starts).toBe(1);
    finish();
    await until(async () => (await rowOf(id)).status === 'succeeded');
    expect((await rowOf(id)).attempts).toBe(1);
  });
});
