import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../database/columns.js';

/** The embedded job queue (platform/jobs/database-job-queue.ts); BullMQ replaces it when REDIS_URL is set. */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    /** The capacity it runs on (platform/jobs/job-queue.ts). */
    lane: text('lane').$type<'interactive' | 'bulk' | 'evaluation'>().notNull().default('interactive'),
    /** Whose fair share of the lane it uses: its workspace's GUID ('' for a payload without one). */
    fairShareKey: text('fair_share_key').notNull().default(''),
    /** Its turn in the lane's fair order (start-time fair queuing; database-job-queue.ts). */
    fairPosition: bigint('fair_position', { mode: 'number' }).notNull().default(0),
    payload: jsonb('payload').notNull(),
    status: text('status').$type<'queued' | 'running' | 'succeeded' | 'failed'>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    runAt: timestamp('run_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    /** A caller's idempotency key: enqueueing the same key again adds nothing (a workflow's next block). */
    key: text('key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('jobs_ready_index').on(table.status, table.runAt),
    // The fair claim walks the queued jobs' keys of a lane one by one, then takes each key's next turn.
    index('jobs_fair_claim_index')
      .on(table.lane, table.fairShareKey, table.fairPosition)
      .where(sql`status = 'queued'`),
    // The lane's virtual clock: the lowest turn still queued.
    index('jobs_fair_clock_index').on(table.lane, table.fairPosition).where(sql`status = 'queued'`),
    uniqueIndex('jobs_key_unique').on(table.key),
  ],
);
