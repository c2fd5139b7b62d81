import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { type Database, rowsOf } from '../database/connection.js';
import { jobs } from '../database/schema.js';
import {
  backoffDelay,
  type JobDefinition,
  type JobFailureHandler,
  type JobProcessor,
  type JobQueue,
} from './job-queue.js';

type Registration = {
  definition: JobDefinition<unknown>;
  processor: JobProcessor<unknown>;
  onFinalFailure?: JobFailureHandler<unknown>;
};

/**
 * A claim holds a job this long; a running job renews it every third of that (the heartbeat), so a
 * node that dies releases its jobs within this time however long they may run.
 */
const lockSeconds = 15;

type ClaimedJob = { id: string; name: string; payload: unknown; attempts: number; max_attempts: number };

export type DatabaseJobQueueOptions = {
  concurrency?: number;
  pollIntervalMs?: number;
  /** How long stop() waits for running jobs before leaving them to be re-claimed after their lock. */
  drainTimeoutMs?: number;
  /**
   * This process is the only worker (embedded PGlite owns its data dir): a job still marked running
   * at start belonged to a process that died, so it is taken again at once instead of after its lock.
   */
  exclusive?: boolean;
};

/**
 * The embedded job queue: jobs are rows, so a restart resumes them. A claim sets `locked_until`;
 * a job whose node died is claimed again once that passes (the visibility timeout).
 */
export function createDatabaseJobQueue(
  database: Database,
  logger: Logger,
  options: DatabaseJobQueueOptions = {},
): JobQueue {
  const concurrency = options.concurrency ?? 4;
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const registrations = new Map<string, Registration>();
  const running = new Set<Promise<void>>();
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let polling = false;
  let pollAgain = false;

  async function claim(): Promise<ClaimedJob | undefined> {
    const names = [...registrations.keys()];
    if (names.length === 0) return undefined;
    const result = await database.execute(sql`
      UPDATE ${jobs} SET status = 'running', attempts = attempts + 1, updated_at = now(),
        locked_until = now() + make_interval(secs => ${lockSeconds})
      WHERE id = (
        SELECT id FROM ${jobs}
        WHERE name IN (${sql.join(
          names.map((name) => sql`${name}`),
          sql`, `,
        )})
          AND ((status = 'queued' AND run_at <= now()) OR (status = 'running' AND locked_until < now()))
        ORDER BY run_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, name, payload, attempts, max_attempts`);
    return rowsOf<ClaimedJob>(result)[0];
  }

  async function finish(job: ClaimedJob, error: Error | undefined): Promise<void> {
    const registration = registrations.get(job.name)!;
    if (!error) {
      await database.execute(
        sql`UPDATE ${jobs} SET status = 'succeeded', locked_until = NULL, updated_at = now() WHERE id = ${job.id}`,
      );
      return;
    }
    if (job.attempts < job.max_attempts) {
      const delayMs = backoffDelay(registration.definition, job.attempts);
      logger.warn(
        { job: job.id, name: job.name, attempt: job.attempts, err: error.message },
        'job attempt failed; retrying',
      );
      await database.execute(sql`UPDATE ${jobs} SET status = 'queued', locked_until = NULL, last_error = ${error.message},
        run_at = now() + make_interval(secs => ${delayMs / 1000}), updated_at = now() WHERE id = ${job.id}`);
      return;
    }
    logger.error({ job: job.id, name: job.name, err: error.message }, 'job failed for good');
    await database.execute(
      sql`UPDATE ${jobs} SET status = 'failed', locked_until = NULL, last_error = ${error.message}, updated_at = now() WHERE id = ${job.id}`,
    );
    await registration.onFinalFailure?.(job.payload, error).catch((failure: unknown) => {
      logger.error({ job: job.id, err: (failure as Error).message }, 'job failure handler failed');
    });
  }

  async function execute(job: ClaimedJob): Promise<void> {
    const registration = registrations.get(job.name)!;
    const controller = new AbortController();
    const heartbeat = setInterval(
      () => {
        database
          .execute(
            sql`UPDATE ${jobs} SET locked_until = now() + make_interval(secs => ${lockSeconds}) WHERE id = ${job.id} AND status = 'running'`,
          )
          .catch((error: unknown) => logger.warn({ err: error, job: job.id }, 'job heartbeat failed'));
      },
      (lockSeconds * 1000) / 3,
    );
    let timeout: NodeJS.Timeout | undefined;
    let failure: Error | undefined;
    try {
      const payload = registration.definition.payload.parse(job.payload);
      await Promise.race([
        registration.processor(payload, { jobId: job.id, attempt: job.attempts, signal: controller.signal }),
        new Promise<never>((_, reject) => {
          timeout = setTimeout(() => {
            controller.abort();
            reject(new Error(`Job timed out after ${registration.definition.timeoutMs} ms`));
          }, registration.definition.timeoutMs);
        }),
      ]);
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    } finally {
      clearTimeout(timeout);
      clearInterval(heartbeat);
    }
    await finish(job, failure);
  }

  async function poll(): Promise<void> {
    if (polling) {
      pollAgain = true;
      return;
    }
    polling = true;
    try {
      do {
        pollAgain = false;
        while (!stopping && running.size < concurrency) {
          const job = await claim();
          if (!job) break;
          const task = execute(job)
            .catch((error: unknown) => logger.error({ err: error }, 'job bookkeeping failed'))
            .finally(() => {
              running.delete(task);
              if (!stopping) void poll();
            });
          running.add(task);
        }
      } while (pollAgain && !stopping);
    } catch (error) {
      logger.error({ err: error }, 'job poll failed');
    } finally {
      polling = false;
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
    async enqueue(definition, payload, options = {}) {
      const parsed = definition.payload.parse(payload);
      const runAt = new Date(Date.now() + (options.delayMs ?? 0));
      const [inserted] = await database
        .insert(jobs)
        .values({
          id: randomUUID(),
          name: definition.name,
          payload: parsed,
          status: 'queued',
          maxAttempts: definition.attempts,
          runAt,
          key: options.key ?? null,
        })
        .onConflictDoNothing({ target: jobs.key })
        .returning({ id: jobs.id });
      if (!inserted) {
        const [existing] = await database
          .select({ id: jobs.id })
          .from(jobs)
          .where(eq(jobs.key, options.key!));
        return existing!.id;
      }
      if (started && !stopping && !options.delayMs) void poll();
      return inserted.id;
    },
    start() {
      if (started) return;
      started = true;
      const recovered = options.exclusive
        ? database.execute(
            sql`UPDATE ${jobs} SET status = 'queued', locked_until = NULL, updated_at = now() WHERE status = 'running'`,
          )
        : Promise.resolve();
      void recovered
        .catch((error: unknown) => logger.error({ err: error }, 'job recovery failed'))
        .then(() => {
          if (stopping) return;
          timer = setInterval(() => void poll(), pollIntervalMs);
          timer.unref();
          void poll();
        });
    },
    async stop() {
      stopping = true;
      clearInterval(timer);
      const drain = Promise.allSettled([...running]);
      await Promise.race([
        drain,
        new Promise((resolve) => setTimeout(resolve, options.drainTimeoutMs ?? 10_000).unref()),
      ]);
    },
  };
}
