import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import type { DatabaseHandle } from '../../src/platform/database/connection.js';
import {
  createDatabaseJobQueue,
  type DatabaseJobQueueOptions,
} from '../../src/platform/jobs/database-job-queue.js';
import { defineJob, type JobQueue } from '../../src/platform/jobs/job-queue.js';
import { jobs } from '../../src/platform/jobs/tables.js';
import { openTestDatabase } from './test-app.js';

/**
 * Database job queues over one test database for a file: each is stopped after the file. Tests use
 * job names of their own (`uniqueJob`), so queues sharing the database never take each other's jobs.
 */
export function useDatabaseQueues() {
  const queues: JobQueue[] = [];
  const context = {
    handle: undefined as unknown as DatabaseHandle,
    logger: pino({ level: 'silent' }),
    newQueue(options: DatabaseJobQueueOptions = {}): JobQueue {
      const queue = createDatabaseJobQueue(context.handle.database, context.logger, {
        pollIntervalMs: 20,
        ...options,
      });
      queues.push(queue);
      return queue;
    },
    /** A job's row as the database holds it. */
    async jobRow(id: string) {
      return (await context.handle.database.select().from(jobs).where(eq(jobs.id, id)))[0]!;
    },
  };
  beforeAll(async () => {
    context.handle = await openTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.stop()));
    await context.handle.close();
  });
  return context;
}

/** A job definition of its own name, so tests never take each other's jobs. */
export const uniqueJob = (
  prefix: string,
  settings: { attempts: number; backoffMs?: number; timeoutMs?: number },
) =>
  defineJob({
    name: `${prefix}-${randomUUID()}`,
    lane: 'interactive',
    payload: z.object({}),
    backoffMs: 10,
    timeoutMs: 5_000,
    ...settings,
  });
