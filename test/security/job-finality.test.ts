import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs } from '../../src/platform/jobs/tables.js';
import { uniqueJob as uniqueJobOf, useDatabaseQueues } from '../helpers/database-queues.js';
import { eventually } from '../helpers/test-app.js';

// Findings 3 and 7: a job ends even when its bookkeeping cannot store the error, a lapsed job is
// never taken past its attempt limit, and a node never takes a job it is still running.

const queues = useDatabaseQueues();
const newQueue = (options: { exclusive?: boolean } = {}) => queues.newQueue(options);
const uniqueJob = (attempts: number) => uniqueJobOf('finality', { attempts, timeoutMs: 60_000 });
const rowOf = (id: string) => queues.jobRow(id);

/** A job row left `running` by a node that died: its lock and attempts as given. */
const insertRunning = (
  definition: { name: string },
  row: { id: string; attempts: number; maxAttempts: number; lockedUntil: Date },
) =>
  queues.handle.database.insert(jobs).values({
    ...row,
    name: definition.name,
    payload: {},
    status: 'running',
    runAt: new Date(Date.now() - 60_000),
  });

/** Registers `attempt` for a new queue, counting its calls and the final failures it reports. */
function countingJob(definition: { name: string }, attempt: () => Promise<void> = async () => undefined) {
  const queue = newQueue();
  const counts = { calls: 0, finalFailures: [] as string[] };
  queue.register(
    definition as ReturnType<typeof uniqueJob>,
    async () => {
      counts.calls += 1;
      await attempt();
    },
    async (_payload, error) => {
      counts.finalFailures.push(error.message);
    },
  );
  return { queue, counts };
}

/** Waits until `condition` holds (eventually() waits for a value; these wait for a state). */
const until = (condition: () => boolean | Promise<boolean>) =>
  eventually(async () => ((await condition()) ? true : undefined));

describe('database job queue finality', () => {
  it('ends a job whose error text PostgreSQL cannot store (NUL), after its attempts, and reports it', async () => {
    const definition = uniqueJob(2);
    const { queue, counts } = countingJob(definition, async () => {
      // What a failed INSERT of a model's output says: the statement and its parameters, NUL and all.
      throw new Error('Failed query: insert into "generations" params: answer\u0000with NUL \ud800');
    });
    const id = await queue.enqueue(definition, {});
    queue.start();
    await until(async () => (await rowOf(id)).status === 'failed');
    expect(counts.calls).toBe(2);
    expect(counts.finalFailures).toHaveLength(1);
    const row = await rowOf(id);
    expect(row.lastError).toContain('answerwith NUL');
    expect(row.lastError).not.toContain('\u0000');
    expect(row.attempts).toBe(2);
  });

  it('never takes a lapsed job past its attempt limit; it fails it and reports the final failure', async () => {
    const definition = uniqueJob(3);
    const id = randomUUID();
    // A job whose third and last attempt's node died (or froze) long ago.
    await insertRunning(definition, {
      id,
      attempts: 3,
      maxAttempts: 3,
      lockedUntil: new Date(Date.now() - 30_000),
    });
    const { queue, counts } = countingJob(definition);
    queue.start();
    await until(async () => (await rowOf(id)).status === 'failed');
    expect(counts.calls).toBe(0);
    expect((await rowOf(id)).attempts).toBe(3);
    expect(counts.finalFailures).toEqual([expect.stringMatching(/no attempts remain/)]);
  });

  it('also after a restart of an exclusive (embedded) node, which retries only jobs with attempts left', async () => {
    const definition = uniqueJob(2);
    const exhausted = randomUUID();
    const retryable = randomUUID();
    for (const [id, attempts] of [
      [exhausted, 2],
      [retryable, 1],
    ] as const) {
      await insertRunning(definition, {
        id,
        attempts,
        maxAttempts: 2,
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
    await queues.handle.database.execute(
      sql`UPDATE ${jobs} SET locked_until = now() - interval '1 second' WHERE id = ${id}`,
    );
    // A job queued behind the lapsed one wakes the poller; once it has run, a claim has passed the
    // lapsed job over (it was queued earlier, so a claim would have taken it first).
    const waker = uniqueJob(1);
    let wakerRan = false;
    queue.register(waker, async () => {
      wakerRan = true;
    });
    await queue.enqueue(waker, {});
    await until(() => wakerRan);
    expect(starts).toBe(1);
    finish();
    await until(async () => (await rowOf(id)).status === 'succeeded');
    expect((await rowOf(id)).attempts).toBe(1);
  });
});
