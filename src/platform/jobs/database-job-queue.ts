import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { type Database, rowsOf } from '../database/connection.js';
import { storableText } from '../storable-text.js';
import {
  backoffDelay,
  defaultJobSlots,
  fairShareKey,
  type JobDefinition,
  type JobLane,
  type JobQueue,
  type JobRegistration,
  JobReleasedError,
  type JobSlots,
  jobLanes,
  jobRetention,
  reportFinalFailure,
  runAttempt,
  toRegistration,
} from './job-queue.js';
import { jobs } from './tables.js';

/**
 * A claim holds a job this long; a running job renews it every third of that (the heartbeat), so a
 * node that dies releases its jobs within this time however long they may run.
 */
const lockSeconds = 15;

/** Why a job ended without its last attempt reporting back. */
const exhaustedMessage =
  'the last attempt stopped answering (its node died or stalled) and no attempts remain';

/** Longest error text kept on a job row. */
const maximumErrorLength = 2_000;

/** An error's text as a row can hold it: no NUL (PostgreSQL text cannot), well-formed, bounded. */
function storableError(error: Error | undefined): string {
  const text = error?.message ?? '';
  return storableText(text.slice(0, maximumErrorLength));
}

type ClaimedJob = { id: string; name: string; payload: unknown; attempts: number; max_attempts: number };

export type DatabaseJobQueueOptions = {
  /** Jobs of each lane this node runs at once. */
  slots?: Partial<JobSlots>;
  pollIntervalMs?: number;
  /** How long stop() waits for running jobs before giving them back to the queue for another node. */
  drainTimeoutMs?: number;
  /** How often finished jobs past their retention are deleted (every node sweeps; it is idempotent). */
  sweepIntervalMs?: number;
  /**
   * This process is the only worker (embedded PGlite owns its data dir): a job still marked running
   * at start belonged to a process that died, so it is taken again at once instead of after its lock.
   */
  exclusive?: boolean;
  /**
   * Defers waking the workers until the caller's transaction has committed
   * (TransactionScope.afterCommit): before that, the job's row is not there for them to take.
   */
  afterCommit?: (callback: () => unknown) => Promise<void>;
};

/**
 * A new job's turn in its lane (start-time fair queuing): one after the later of the lane's clock
 * (the lowest turn still queued) and its workspace's last queued turn. A workspace's jobs so keep
 * their order, and a workspace that queues one job while another has 10,000 queued gets the turn
 * right after the clock instead of the 10,001st. `offset` numbers the jobs of one insert.
 */
function turnOf(lane: JobLane, key: string, offset: number) {
  return sql`(greatest(
    (SELECT coalesce(min(fair_position), 0) FROM ${jobs} WHERE status = 'queued' AND lane = ${lane}),
    (SELECT coalesce(max(fair_position), 0) FROM ${jobs}
      WHERE status = 'queued' AND lane = ${lane} AND fair_share_key = ${key})) + ${offset + 1})`;
}

/** A new job's row: its payload checked against the definition, its lane, fair share and turn. */
function jobRow<Payload>(definition: JobDefinition<Payload>, payload: Payload, runAt: Date, offset = 0) {
  const parsed = definition.payload.parse(payload);
  const key = fairShareKey(parsed);
  return {
    id: randomUUID(),
    name: definition.name,
    lane: definition.lane,
    fairShareKey: key,
    fairPosition: turnOf(definition.lane, key, offset),
    payload: parsed,
    status: 'queued' as const,
    maxAttempts: definition.attempts,
    runAt,
  };
}

/**
 * The embedded job queue: jobs are rows, so a restart resumes them. A claim sets `locked_until`;
 * a job whose node died is claimed again once that passes (the visibility timeout).
 */
export function createDatabaseJobQueue(
  database: Database,
  logger: Logger,
  options: DatabaseJobQueueOptions = {},
): JobQueue {
  const slots: JobSlots = { ...defaultJobSlots, ...options.slots };
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const registrations = new Map<string, JobRegistration>();
  /** Each running job's lane, bookkeeping task, and the signal that gives it back on shutdown. */
  const running = new Map<string, { lane: JobLane; task: Promise<void>; release: AbortController }>();
  const runningIn = (lane: JobLane) => [...running.values()].filter((each) => each.lane === lane).length;
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let polling = false;
  let pollAgain = false;
  let lastExhaustedCheck = 0;

  const jobNames = () =>
    sql.join(
      [...registrations.keys()].map((name) => sql`${name}`),
      sql`, `,
    );

  /**
   * Never a job this node is running: a main thread that stalled past the lock (so its heartbeat
   * could not fire) must not start its own job a second time.
   */
  const notHeldHere = () =>
    running.size === 0
      ? sql``
      : sql`AND id NOT IN (${sql.join(
          [...running.keys()].map((id) => sql`${id}`),
          sql`, `,
        )})`;

  /**
   * Takes the next job of a lane, fairly between workspaces: each workspace (fair-share key) with a
   * ready job offers its next turn, and the one whose workspace runs the fewest jobs of the lane now
   * (on every node) wins, then the earliest turn (see turnOf), then the oldest. A workspace with
   * 10,000 queued jobs so takes turns with one that has a single job. The keys are found by a skip
   * scan of the partial index (one index probe per workspace), never by reading every queued row.
   */
  async function claim(lane: JobLane): Promise<ClaimedJob | undefined> {
    if (registrations.size === 0) return undefined;
    const result = await database.execute(sql`
      WITH RECURSIVE waiting(key) AS (
        (SELECT fair_share_key FROM ${jobs} WHERE status = 'queued' AND lane = ${lane}
          ORDER BY fair_share_key LIMIT 1)
        UNION ALL
        SELECT (SELECT fair_share_key FROM ${jobs} WHERE status = 'queued' AND lane = ${lane}
            AND fair_share_key > waiting.key ORDER BY fair_share_key LIMIT 1)
        FROM waiting WHERE waiting.key IS NOT NULL),
      busy AS (
        SELECT fair_share_key AS key, count(*) AS running FROM ${jobs}
        WHERE status = 'running' AND lane = ${lane} GROUP BY fair_share_key),
      offered AS (
        SELECT next.id, next.fair_position, next.run_at, coalesce(busy.running, 0) AS running
        FROM waiting
        CROSS JOIN LATERAL (
          SELECT id, fair_position, run_at FROM ${jobs}
          WHERE status = 'queued' AND lane = ${lane} AND fair_share_key = waiting.key
            AND run_at <= now() AND name IN (${jobNames()})
          ORDER BY fair_position LIMIT 1) next
        LEFT JOIN busy ON busy.key = waiting.key
        WHERE waiting.key IS NOT NULL)
      UPDATE ${jobs} SET status = 'running', attempts = attempts + 1, updated_at = now(),
        locked_until = now() + make_interval(secs => ${lockSeconds})
      WHERE id = (
        SELECT candidate.id FROM ${jobs} candidate JOIN offered ON offered.id = candidate.id
        WHERE candidate.status = 'queued'
        ORDER BY offered.running, offered.fair_position, offered.run_at LIMIT 1
        FOR UPDATE OF candidate SKIP LOCKED)
      RETURNING id, name, payload, attempts, max_attempts`);
    return rowsOf<ClaimedJob>(result)[0];
  }

  /**
   * Jobs whose node died or froze past its lock go back to the queue while attempts remain, to be
   * claimed (fairly) like any other; failExhausted() ends the others instead of running them for ever.
   */
  async function requeueLapsed(): Promise<void> {
    if (registrations.size === 0) return;
    await database.execute(sql`
      UPDATE ${jobs} SET status = 'queued', locked_until = NULL, run_at = now(), updated_at = now()
      WHERE id IN (
        SELECT id FROM ${jobs}
        WHERE name IN (${jobNames()}) AND status = 'running' AND locked_until < now()
          AND attempts < max_attempts ${notHeldHere()}
        FOR UPDATE SKIP LOCKED)`);
  }

  /** Jobs whose last attempt's node died or froze past its lock: failed, and reported as final failures. */
  async function failExhausted(): Promise<void> {
    if (registrations.size === 0) return;
    const result = await database.execute(sql`
      UPDATE ${jobs} SET status = 'failed', locked_until = NULL, updated_at = now(),
        last_error = ${exhaustedMessage}
      WHERE id IN (
        SELECT id FROM ${jobs}
        WHERE name IN (${jobNames()}) AND status = 'running' AND locked_until < now()
          AND attempts >= max_attempts ${notHeldHere()}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, name, payload, attempts, max_attempts`);
    for (const job of rowsOf<ClaimedJob>(result)) {
      await reportFinalFailure(registrations.get(job.name), job, new Error(exhaustedMessage), logger);
    }
  }

  /**
   * Records how an attempt ended. If the row cannot take the error's text (a database error quoting
   * the statement that failed, with characters PostgreSQL cannot store), it is written without it:
   * bookkeeping that fails must still end the attempt, or the job would be taken again and again.
   */
  async function finish(job: ClaimedJob, error: Error | undefined): Promise<void> {
    try {
      await record(job, error, storableError(error));
    } catch (failure) {
      logger.error({ err: failure, job: job.id }, 'job bookkeeping failed; recording without the error text');
      await record(job, error, 'the error could not be stored (see the server log)');
    }
  }

  async function record(job: ClaimedJob, error: Error | undefined, errorText: string): Promise<void> {
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
        { job: job.id, name: job.name, attempt: job.attempts, err: errorText },
        'job attempt failed; retrying',
      );
      await database.execute(sql`UPDATE ${jobs} SET status = 'queued', locked_until = NULL, last_error = ${errorText},
        run_at = now() + make_interval(secs => ${delayMs / 1000}), updated_at = now() WHERE id = ${job.id}`);
      return;
    }
    await database.execute(
      sql`UPDATE ${jobs} SET status = 'failed', locked_until = NULL, last_error = ${errorText}, updated_at = now() WHERE id = ${job.id}`,
    );
    await reportFinalFailure(registration, job, error, logger);
  }

  async function execute(job: ClaimedJob, release: AbortSignal): Promise<void> {
    const registration = registrations.get(job.name)!;
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
    let failure: Error | undefined;
    try {
      await runAttempt(registration, job.payload, { jobId: job.id, attempt: job.attempts, release }, logger);
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    } finally {
      clearInterval(heartbeat);
    }
    // Released: stop() has put the row back in the queue, with this attempt not counted.
    if (failure instanceof JobReleasedError) return;
    await finish(job, failure);
  }

  /** Deletes finished jobs past their retention, in batches, so the table does not grow for ever. */
  async function sweep(): Promise<void> {
    const batch = 1_000;
    for (;;) {
      const result = await database.execute(sql`
        DELETE FROM ${jobs} WHERE id IN (
          SELECT id FROM ${jobs}
          WHERE (status = 'succeeded' AND updated_at < now() - make_interval(secs => ${jobRetention.succeededMs / 1000}))
             OR (status = 'failed' AND updated_at < now() - make_interval(secs => ${jobRetention.failedMs / 1000}))
          LIMIT ${batch} FOR UPDATE SKIP LOCKED)
        RETURNING id`);
      if (rowsOf(result).length < batch || stopping) return;
    }
  }

  async function poll(): Promise<void> {
    if (polling) {
      pollAgain = true;
      return;
    }
    polling = true;
    try {
      if (Date.now() - lastExhaustedCheck >= (lockSeconds * 1000) / 3) {
        lastExhaustedCheck = Date.now();
        await failExhausted();
        await requeueLapsed();
      }
      do {
        pollAgain = false;
        for (const lane of jobLanes) {
          while (!stopping && runningIn(lane) < slots[lane]) {
            const job = await claim(lane);
            if (!job) break;
            const release = new AbortController();
            const task = execute(job, release.signal)
              .catch((error: unknown) => logger.error({ err: error }, 'job bookkeeping failed'))
              .finally(() => {
                running.delete(job.id);
                if (!stopping) void poll();
              });
            running.set(job.id, { lane, task, release });
          }
        }
      } while (pollAgain && !stopping);
    } catch (error) {
      logger.error({ err: error }, 'job poll failed');
    } finally {
      polling = false;
    }
  }

  function wake(): void {
    if (options.afterCommit) void options.afterCommit(() => void poll());
    else void poll();
  }

  return {
    register(definition, processor, onFinalFailure) {
      registrations.set(definition.name, toRegistration(definition, processor, onFinalFailure));
    },
    async enqueue(definition, payload, options = {}) {
      const runAt = new Date(Date.now() + (options.delayMs ?? 0));
      const [inserted] = await database
        .insert(jobs)
        .values({ ...jobRow(definition, payload, runAt), key: options.key ?? null })
        .onConflictDoNothing({ target: jobs.key })
        .returning({ id: jobs.id });
      if (!inserted) {
        const [existing] = await database
          .select({ id: jobs.id })
          .from(jobs)
          .where(eq(jobs.key, options.key!));
        return existing!.id;
      }
      if (started && !stopping && !options.delayMs) wake();
      return inserted.id;
    },
    async enqueueMany(definition, payloads) {
      if (payloads.length === 0) return [];
      const runAt = new Date();
      // One statement: every row reads the same clock, so the offsets number this batch's turns.
      const rows = payloads.map((payload, index) => jobRow(definition, payload, runAt, index));
      await database.insert(jobs).values(rows);
      if (started && !stopping) wake();
      return rows.map((row) => row.id);
    },
    async status(jobId) {
      const [row] = await database.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, jobId));
      return row?.status;
    },
    async statusOfKey(key) {
      const [row] = await database.select({ status: jobs.status }).from(jobs).where(eq(jobs.key, key));
      return row?.status;
    },
    start() {
      if (started) return;
      started = true;
      // Exclusive: every lock still held belonged to a process that died, so it lapses now; the claim
      // takes those with attempts left and failExhausted() ends the others.
      const recovered = options.exclusive
        ? database.execute(
            sql`UPDATE ${jobs} SET locked_until = now() - interval '1 second' WHERE status = 'running'`,
          )
        : Promise.resolve();
      void recovered
        .catch((error: unknown) => logger.error({ err: error }, 'job recovery failed'))
        .then(() => {
          if (stopping) return;
          timer = setInterval(() => void poll(), pollIntervalMs);
          timer.unref();
          void poll();
          const sweepSafely = () =>
            sweep().catch((error: unknown) => logger.warn({ err: error }, 'job retention sweep failed'));
          sweepTimer = setInterval(sweepSafely, options.sweepIntervalMs ?? 60 * 60_000);
          sweepTimer.unref();
          void sweepSafely();
        });
    },
    async stop() {
      stopping = true;
      clearInterval(timer);
      clearInterval(sweepTimer);
      const drained = await Promise.race([
        Promise.allSettled([...running.values()].map((each) => each.task)).then(() => true),
        new Promise<boolean>((resolve) =>
          setTimeout(() => resolve(false), options.drainTimeoutMs ?? 10_000).unref(),
        ),
      ]);
      if (drained || running.size === 0) return;
      // Hand what is still running back at once, as not attempted, rather than when its lock lapses.
      // Abort first: an attempt ended by the release records nothing, so the row is ours to reset.
      const ids = [...running.keys()];
      for (const id of ids) running.get(id)?.release.abort();
      await database
        .execute(
          sql`UPDATE ${jobs} SET status = 'queued', attempts = attempts - 1, locked_until = NULL, run_at = now(),
            updated_at = now() WHERE status = 'running' AND id IN (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})`,
        )
        .catch((error: unknown) =>
          logger.warn({ err: error }, 'could not release running jobs; their locks will lapse'),
        );
    },
  };
}
