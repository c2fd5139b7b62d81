import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { restrictToOwner } from '../data-directory.js';
import { packagePath } from '../install-paths.js';
import {
  type EmbeddedLocation,
  type StartedEmbeddedDatabase,
  startEmbeddedDatabase,
} from './embedded-start.js';

/** The tables are each feature's (its tables.ts); queries name them, so the handle carries none. */
export type Database = PgDatabase<PgQueryResultHKT>;

/** Rows of a raw `execute()`: pg and PGlite both answer `{ rows }`. */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

export type DatabaseHandle = {
  kind: 'pglite' | 'postgres';
  database: Database;
  /** Whether the pgvector extension is available (always on PGlite; optional on PostgreSQL). */
  hasVectorExtension: boolean;
  close(): Promise<void>;
  /** PGlite only: the whole data dir as a tarball (backups, test snapshots). */
  dump?: () => Promise<Blob>;
  /** PGlite only: milliseconds since the last interactive statement was answered (0 while one runs). */
  quietFor?: () => number;
};

const migrationsFolder = packagePath('drizzle');

/** Closing twice (a platform and its owner both closing on shutdown) is harmless. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= close();
    return closing;
  };
}

/**
 * pgvector 0.8: an HNSW scan filtered by Context and metadata keeps going until it has enough rows,
 * instead of returning fewer than asked for when other Contexts' vectors are nearer.
 */
const iterativeScan = 'SET hnsw.iterative_scan = relaxed_order';

/**
 * Embeddings are stored as real[] and cast to vector per row when compared exactly; that cast (and
 * the out-of-line read behind it) costs ~10 µs a row, which the planner, counting it as a cheap
 * function, ignores, so it would sort a whole large Context instead of walking the HNSW index. A
 * realistic cost lets it choose: exact for small Contexts, HNSW for large ones. Best effort: a
 * managed PostgreSQL may not let the application change an extension's function.
 */
const realisticCastCost = 'ALTER FUNCTION array_to_vector(real[], integer, boolean) COST 2000';

/** Serialises migrations when several nodes start against one PostgreSQL at once. */
const migrationLockKey = 4_242_001;

/**
 * Where the data lives. `snapshot` (in memory only) starts PGlite from a dumped data dir instead of
 * running initdb: ~0.5 s instead of ~4 s, which is what lets every test file have its own database.
 */
export type DatabaseLocation = { databaseUrl: string } | EmbeddedLocation;

export type DatabaseWarning = (message: string) => void;

export async function openDatabase(
  location: DatabaseLocation,
  warn: DatabaseWarning,
  /** The embedded database already started (main.ts starts it before it loads the service). */
  started?: Promise<StartedEmbeddedDatabase>,
): Promise<DatabaseHandle> {
  if ('databaseUrl' in location) return openPostgres(location.databaseUrl, warn);
  return openPglite(await (started ?? startEmbeddedDatabase(location, warn)));
}

async function openPglite({ client, dataDir, lock }: StartedEmbeddedDatabase): Promise<DatabaseHandle> {
  try {
    if (dataDir) restrictToOwner(dataDir);
    await client.exec('CREATE EXTENSION IF NOT EXISTS vector');
    await client.exec(iterativeScan);
    await client.exec(realisticCastCost);
    // drizzle's PGlite driver calls only `query` and `transaction`, which the worker's client answers.
    const database = drizzlePglite({ client: client as never }) as unknown as Database;
    await migratePglite(database as never, { migrationsFolder });
    return {
      kind: 'pglite',
      database,
      hasVectorExtension: true,
      close: once(async () => {
        await client.close();
        if (dataDir) restrictToOwner(dataDir);
        lock?.release();
      }),
      dump: () => client.dump(),
      quietFor: () => client.quietFor(),
    };
  } catch (error) {
    await client.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
}

async function openPostgres(databaseUrl: string, warn: DatabaseWarning): Promise<DatabaseHandle> {
  // Imported here: the embedded default never loads the PostgreSQL client.
  const { default: pg } = await import('pg');
  const { drizzle: drizzleNodePostgres } = await import('drizzle-orm/node-postgres');
  const { migrate: migrateNodePostgres } = await import('drizzle-orm/node-postgres/migrator');
  // Pipelined connections send a statement without waiting for the one before to answer: a
  // transaction's last statement (its audit record, transaction-scope.ts) and its COMMIT then cost one
  // round trip. Statements that are awaited one by one behave exactly as before.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, pipeline: true });
  let hasVectorExtension = false;
  pool.on('connect', (connection) => {
    if (hasVectorExtension) connection.query(iterativeScan).catch(() => undefined);
  });
  // An idle connection the server ends (a restart, a failover, an administrator) is dropped by the
  // pool and the next query opens another. Without a listener the pool's error would end the process.
  pool.on('error', (error) =>
    warn(`An idle PostgreSQL connection ended (${error.message}); the pool replaces it.`),
  );
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS vector');
      hasVectorExtension = true;
      await client.query(iterativeScan);
      await client
        .query(realisticCastCost)
        .catch((error: Error) =>
          warn(
            `Could not set the cost of pgvector's array_to_vector (${error.message}); large Contexts may be searched exactly.`,
          ),
        );
    } catch {
      warn(
        'PostgreSQL has no pgvector extension: vector search falls back to exact cosine over real[] (slower on large Contexts).',
      );
    }
    await migrateNodePostgres(drizzleNodePostgres(client), { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]).catch(() => undefined);
    client.release();
  }
  const database = drizzleNodePostgres(pool) as unknown as Database;
  await database.execute(sql`select 1`);
  return { kind: 'postgres', database, hasVectorExtension, close: once(() => pool.end()) };
}

/** A `uuid[]` parameter (drizzle's `sql` would spread a JavaScript array into a value list). */
export function uuidArray(ids: string[]) {
  for (const id of ids) if (!/^[0-9a-f-]{36}$/i.test(id)) throw new Error(`Not a GUID: ${id}`);
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}
