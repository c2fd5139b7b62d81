import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createBullmqJobQueue } from '../../src/platform/jobs/bullmq-job-queue.js';
import { defineJob, type JobLane, type JobQueue, type JobSlots } from '../../src/platform/jobs/job-queue.js';
import { useDatabaseQueues } from '../helpers/database-queues.js';
import { eventually } from '../helpers/test-app.js';

// Issue: one workspace's bulk work (four large Document loads) kept another workspace's async run
// PENDING for minutes, as every job slot ran embedding and jobs were taken oldest first. Each lane
// now has its own slots, and within a lane the workspaces take turns.

const databaseQueues = useDatabaseQueues();
const redisUrl = process.env.REDIS_URL || undefined;
const bullmqQueues: JobQueue[] = [];
afterAll(async () => {
  await Promise.all(bullmqQueues.map((queue) => queue.stop()));
});

const implementations: [string, (slots: JobSlots) => JobQueue][] = [
  ['database', (slots) => databaseQueues.newQueue({ slots })],
  ...(redisUrl
    ? [
        [
          'BullMQ',
          (slots: JobSlots) => {
            const queue = createBullmqJobQueue(redisUrl!, databaseQueues.logger, {
              prefix: `lectern-test-${randomUUID()}`,
              slots,
            });
            bullmqQueues.push(queue);
            return queue;
          },
        ] as [string, (slots: JobSlots) => JobQueue],
      ]
    : []),
];

const workspaceJob = (lane: JobLane) =>
  defineJob({
    name: `${lane}-${randomUUID()}`,
    lane,
    payload: z.object({ workspaceId: z.string(), value: z.number() }),
    attempts: 1,
    backoffMs: 10,
    timeoutMs: 30_000,
  });

describe.each(implementations)('%s job queue lanes and fair shares', (_name, newQueue) => {
  it('runs an interactive job at once while every bulk slot is busy and more bulk work waits', async () => {
    const queue = newQueue({ interactive: 1, bulk: 1, evaluation: 1 });
    const bulk = workspaceJob('bulk');
    const interactive = workspaceJob('interactive');
    let bulkStarted = 0;
    let releaseBulk: () => void = () => undefined;
    const bulkGate = new Promise<void>((resolve) => {
      releaseBulk = resolve;
    });
    queue.register(bulk, async () => {
      bulkStarted += 1;
      await bulkGate;
    });
    const interactiveRan: number[] = [];
    queue.register(interactive, async (payload) => void interactiveRan.push(payload.value));
    const heavy = randomUUID();
    await queue.enqueueMany(
      bulk,
      Array.from({ length: 5 }, (_, value) => ({ workspaceId: heavy, value })),
    );
    queue.start();
    await eventually(async () => bulkStarted === 1 || undefined);
    await queue.enqueue(interactive, { workspaceId: randomUUID(), value: 1 });
    await eventually(async () => interactiveRan.length === 1 || undefined);
    // The bulk slot is still held: the interactive job did not wait for it.
    expect(bulkStarted).toBe(1);
    releaseBulk();
    await eventually(async () => bulkStarted === 5 || undefined);
  });

  it('lets a workspace with one queued job run it among the first, behind another with 300', async () => {
    const queue = newQueue({ interactive: 1, bulk: 1, evaluation: 1 });
    const job = workspaceJob('bulk');
    const order: string[] = [];
    queue.register(job, async (payload) => void order.push(`${payload.workspaceId}:${payload.value}`));
    const busy = randomUUID();
    const light = randomUUID();
    await queue.enqueueMany(
      job,
      Array.from({ length: 300 }, (_, value) => ({ workspaceId: busy, value })),
    );
    await queue.enqueue(job, { workspaceId: light, value: 0 });
    queue.start();
    // Throughput is the machine's (a loaded CI machine claims slowly); the order is the queue's.
    await eventually(async () => order.length === 301 || undefined, 110_000);
    // Oldest first would run it last (301st); fair shares run it within the first three.
    expect(order.indexOf(`${light}:0`)).toBeLessThan(3);
    // The busy workspace's own jobs kept their order.
    const busyValues = order
      .filter((entry) => entry.startsWith(busy))
      .map((entry) => Number(entry.split(':')[1]));
    expect(busyValues).toEqual([...busyValues].sort((a, b) => a - b));
  }, 120_000);

  it('alternates two workspaces that both have a backlog in one lane', async () => {
    const queue = newQueue({ interactive: 1, bulk: 1, evaluation: 1 });
    const job = workspaceJob('interactive');
    const order: string[] = [];
    queue.register(job, async (payload) => void order.push(payload.workspaceId));
    const first = randomUUID();
    const second = randomUUID();
    await queue.enqueueMany(
      job,
      Array.from({ length: 20 }, (_, value) => ({ workspaceId: first, value })),
    );
    await queue.enqueueMany(
      job,
      Array.from({ length: 20 }, (_, value) => ({ workspaceId: second, value })),
    );
    queue.start();
    await eventually(async () => order.length === 40 || undefined, 110_000);
    // Of the first 20 jobs run, each workspace had about half (oldest first would give the first all 20).
    const secondShare = order.slice(0, 20).filter((workspace) => workspace === second).length;
    expect(secondShare).toBeGreaterThanOrEqual(8);
    expect(secondShare).toBeLessThanOrEqual(12);
  }, 120_000);
});
