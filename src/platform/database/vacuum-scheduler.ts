import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { asBulkWork } from './bulk-work.js';
import { type DatabaseHandle, rowsOf } from './connection.js';

/** Tables whose statistics decide search plans (HNSW or a scan; index-only reads of postings). */
const searchTables = ['documents', 'document_terms'];
/** A quiet moment after a burst of writes, before statistics are brought up to date. */
const settleDelayMs = 2_000;

export type VacuumScheduler = {
  /** Records `rows` embedded; refreshes statistics each time the embedded rows grew by a quarter. */
  noteWrites(rows: number): void;
  /** A batch of work ended: refresh soon if anything changed since the last refresh. */
  settle(): void;
  close(): void;
};

/**
 * PGlite has no autovacuum. Without ANALYZE its planner keeps believing a Context holds a few
 * embedded rows (and sorts every vector instead of walking the HNSW index); without VACUUM the
 * postings indexes cannot be read alone. So this runs VACUUM ANALYZE on the search tables as
 * embedded rows grow (by a quarter, at least 200 rows) and once writes settle. PostgreSQL's
 * autovacuum does this job there: a no-op.
 */
export function createVacuumScheduler(handle: DatabaseHandle, logger: Logger): VacuumScheduler {
  if (handle.kind !== 'pglite') return { noteWrites() {}, settle() {}, close() {} };
  let changed = 0;
  let knownRows = 0;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** A settle arrived while a refresh ran: look again when it ends. */
  let settleAgain = false;

  async function refresh() {
    changed = 0;
    try {
      for (const table of searchTables) await handle.database.execute(sql.raw(`VACUUM ANALYZE ${table}`));
      const [row] = rowsOf<{ rows: number | string }>(
        await handle.database.execute(
          sql`SELECT count(*) AS rows FROM documents WHERE embedding_status = 'embedded'`,
        ),
      );
      knownRows = Number(row?.rows ?? 0);
    } catch (error) {
      logger.warn({ error: (error as Error).message }, 'refreshing search statistics failed');
    }
  }

  function start() {
    if (running) {
      settleAgain = true;
      return;
    }
    // Bulk: a VACUUM of a large table runs for half a second, after interactive statements.
    running = asBulkWork(refresh).finally(() => {
      running = undefined;
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
      if (changed >= Math.max(200, knownRows * 0.25)) start();
    },
    settle() {
      if (changed > 0) schedule();
    },
    close() {
      clearTimeout(timer);
    },
  };
}
