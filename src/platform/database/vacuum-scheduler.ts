import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { asBulkWork } from './bulk-work.js';
import { type DatabaseHandle, rowsOf } from './connection.js';

/** Tables whose planner statistics decide search plans (HNSW or a scan; index-only reads of postings). */
const searchTables = ['documents', 'document_terms'];
/** A quiet moment after a burst of writes, before planner statistics are brought up to date. */
const settleDelayMs = 2_000;
/**
 * Rows ANALYZE samples are 300 × this. PostgreSQL's default (100, 30,000 rows) held the embedded
 * database for 85–190 ms a table on a 40,000-chunk Context; 10 (3,000 rows) for 20–36 ms, and the
 * search plans (row counts of a Context, HNSW or exact) come out the same (bench:search).
 */
const statisticsTarget = 10;
/**
 * Chunks staged between two VACUUMs of the postings: a VACUUM's time grows with the pages written
 * since the last one (~80 ms after a 4 × 4 MB load; 1,000 chunks of real text are ~100,000 postings).
 */
const stagedBetweenVacuums = 1_000;
const defaultTiming = {
  /** Index cleanup waits for this long without an interactive statement: it is not bounded. */
  quietBeforeCleanupMs: 5_000,
  /** How often a waiting index cleanup looks for its quiet moment. */
  cleanupRetryMs: 10_000,
};

export type VacuumScheduler = {
  /** Records `rows` embedded; refreshes planner statistics each time the embedded rows grew by a quarter. */
  noteWrites(rows: number): void;
  /** Records `rows` Documents staged (with their postings); VACUUMs the postings every thousand. */
  noteStaged(rows: number): void;
  /** A batch of work ended: refresh soon if anything changed since the last refresh. */
  settle(): void;
  close(): void;
};

/**
 * PGlite has no autovacuum. Without ANALYZE its planner keeps believing a Context holds a few
 * embedded rows (and sorts every vector instead of walking the HNSW index); without VACUUM the
 * postings indexes cannot be read alone. So this refreshes the search tables as embedded rows grow
 * (by a quarter, at least 200 rows) and once writes settle. PostgreSQL's autovacuum does this job
 * there: a no-op.
 *
 * Every statement of a refresh is short, because every other tenant's statement waits for it
 * (issue: trust boundaries, item 4): a VACUUM that prunes and marks pages visible but leaves the
 * indexes alone (10–30 ms), and an ANALYZE of a small sample. Cleaning the indexes of the rows that
 * embedding left behind (one a stored vector) walks every index, the HNSW graph included, so it
 * waits until a fifth of the embedded rows are dead and the database has had no interactive
 * statement for a few seconds.
 */
export function createVacuumScheduler(
  handle: DatabaseHandle,
  logger: Logger,
  timing = defaultTiming,
): VacuumScheduler {
  if (handle.kind !== 'pglite') return { noteWrites() {}, noteStaged() {}, settle() {}, close() {} };
  const quietFor = handle.quietFor ?? (() => Number.POSITIVE_INFINITY);
  let changed = 0;
  let staged = 0;
  let knownRows = 0;
  /** Rows updated since the indexes were last cleaned: each left a dead version behind. */
  let deadRows = 0;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let cleanupTimer: NodeJS.Timeout | undefined;
  /** A settle arrived while a refresh ran: look again when it ends. */
  let settleAgain = false;
  let closed = false;

  const execute = (statement: string) => handle.database.execute(sql.raw(statement));

  const vacuumOf = (table: string) => execute(`VACUUM (INDEX_CLEANUP OFF, TRUNCATE false) ${table}`);

  async function refresh() {
    changed = 0;
    staged = 0;
    try {
      for (const table of searchTables) {
        await vacuumOf(table);
        await handle.database.transaction(async (transaction) => {
          await transaction.execute(sql.raw(`SET LOCAL default_statistics_target = ${statisticsTarget}`));
          await transaction.execute(sql.raw(`ANALYZE ${table}`));
        });
      }
      const [row] = rowsOf<{ rows: number | string }>(
        await execute(`SELECT count(*) AS rows FROM documents WHERE embedding_status = 'embedded'`),
      );
      knownRows = Number(row?.rows ?? 0);
    } catch (error) {
      logger.warn({ error: (error as Error).message }, 'refreshing planner statistics failed');
    }
    if (deadRows >= Math.max(1_000, knownRows * 0.2)) cleanIndexesWhenQuiet();
  }

  function cleanIndexesWhenQuiet() {
    if (cleanupTimer || closed) return;
    cleanupTimer = setTimeout(() => {
      cleanupTimer = undefined;
      if (quietFor() < timing.quietBeforeCleanupMs || running) return cleanIndexesWhenQuiet();
      const dead = deadRows;
      runAlone(async () => {
        await execute('VACUUM (TRUNCATE false) documents');
        deadRows -= dead;
      }).catch((error: Error) => logger.warn({ error: error.message }, 'cleaning search indexes failed'));
    }, timing.cleanupRetryMs);
    cleanupTimer.unref();
  }

  /** One piece of upkeep at a time, as bulk work: interactive statements go first. */
  function runAlone(work: () => Promise<void>) {
    running = asBulkWork(work).finally(() => {
      running = undefined;
    });
    return running;
  }

  function start() {
    if (running) {
      settleAgain = true;
      return;
    }
    void runAlone(refresh).finally(() => {
      if (settleAgain && changed > 0) schedule();
      settleAgain = false;
    });
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(start, settleDelayMs);
    timer.unref();
  }

  return {
    noteWrites(rows) {
      changed += rows;
      deadRows += rows;
      if (changed >= Math.max(200, knownRows * 0.25)) start();
    },
    noteStaged(rows) {
      staged += rows;
      if (staged < stagedBetweenVacuums || running) return;
      staged = 0;
      runAlone(async () => {
        await vacuumOf('document_terms');
      }).catch((error: Error) => logger.warn({ error: error.message }, 'vacuuming postings failed'));
    },
    settle() {
      if (changed > 0) schedule();
    },
    close() {
      closed = true;
      clearTimeout(timer);
      clearTimeout(cleanupTimer);
    },
  };
}
