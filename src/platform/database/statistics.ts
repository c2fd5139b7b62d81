import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { DatabaseHandle } from './connection.js';

/** Tables whose statistics decide search plans (HNSW or a scan; index-only reads of postings). */
const searchTables = ['documents', 'document_terms'];

export type StatisticsKeeper = {
  /** Records `rows` written to the search tables; refreshes statistics once enough have changed. */
  noteWrites(rows: number): void;
};

/**
 * PGlite has no autovacuum. Without ANALYZE its planner keeps believing a Context holds a few rows
 * (and sorts every vector instead of walking the HNSW index); without VACUUM the postings index
 * cannot be read alone. So after every 10% of growth (at least 500 rows) this runs VACUUM ANALYZE
 * on the search tables. PostgreSQL's autovacuum does the same job there: a no-op.
 */
export function createStatisticsKeeper(handle: DatabaseHandle, logger: Logger): StatisticsKeeper {
  if (handle.kind !== 'pglite') return { noteWrites() {} };
  let changed = 0;
  let knownRows = 0;
  let running = false;

  async function refresh() {
    running = true;
    changed = 0;
    try {
      for (const table of searchTables) await handle.database.execute(sql.raw(`VACUUM ANALYZE ${table}`));
      const [row] = (
        (await handle.database.execute(
          sql`SELECT reltuples::bigint AS rows FROM pg_class WHERE relname = 'documents'`,
        )) as {
          rows: Array<{ rows: number | string }>;
        }
      ).rows;
      knownRows = Math.max(0, Number(row?.rows ?? 0));
    } catch (error) {
      logger.warn({ error: (error as Error).message }, 'refreshing search statistics failed');
    } finally {
      running = false;
    }
  }

  return {
    noteWrites(rows) {
      changed += rows;
      if (running || changed < Math.max(500, knownRows * 0.1)) return;
      void refresh();
    },
  };
}
