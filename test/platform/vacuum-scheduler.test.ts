import { readFileSync } from 'node:fs';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type DatabaseHandle, openDatabase, rowsOf } from '../../src/platform/database/connection.js';
import { createVacuumScheduler } from '../../src/platform/database/vacuum-scheduler.js';
import { eventually } from '../helpers/test-app.js';

// The upkeep exists for PGlite (no autovacuum), so this always runs on a PGlite of the run's snapshot.
let handle: DatabaseHandle;

beforeAll(async () => {
  const snapshot = new Blob([readFileSync(inject('pgliteSnapshotPath'))]);
  handle = await openDatabase({ dataDirectory: 'memory', snapshot }, () => undefined);
});
afterAll(() => handle.close());

async function vacuumCount(): Promise<number> {
  const [row] = rowsOf<{ count: number | string }>(
    await handle.database.execute(
      sql`SELECT coalesce(sum(vacuum_count + analyze_count), 0) AS count FROM pg_stat_user_tables
          WHERE relname IN ('documents', 'document_terms')`,
    ),
  );
  return Number(row?.count ?? 0);
}

/** The real database, with every statement sent through `execute` written down. */
function recorded() {
  const dialect = new PgDialect();
  const statements: string[] = [];
  const database = new Proxy(handle.database, {
    get(target, key) {
      if (key === 'execute')
        return (statement: SQL) => {
          statements.push(dialect.sqlToQuery(statement).sql);
          return target.execute(statement);
        };
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { database, statements };
}

describe('search statistics upkeep', () => {
  it('vacuums the postings every thousand Documents staged, before any is embedded', async () => {
    const { database, statements } = recorded();
    const keeper = createVacuumScheduler({ ...handle, database }, pino({ level: 'silent' }));
    keeper.noteStaged(600);
    keeper.noteStaged(399);
    // The VACUUM's statement is sent the moment it starts: none was.
    expect(statements).toEqual([]);
    keeper.noteStaged(1);
    expect(statements).toEqual(['VACUUM (INDEX_CLEANUP OFF, TRUNCATE false) document_terms']);
    keeper.close();
  });

  it('refreshes statistics on PGlite after enough writes and when writes settle', async () => {
    const keeper = createVacuumScheduler(handle, pino({ level: 'silent' }));
    const before = await vacuumCount();
    // A refresh sends its first statement the moment it starts, so "none started" needs no wait.
    const sent = vi.spyOn(handle.database, 'execute');
    keeper.noteWrites(10);
    expect(sent).not.toHaveBeenCalled();
    sent.mockRestore();
    keeper.noteWrites(500);
    const afterGrowth = await eventually(async () =>
      (await vacuumCount()) > before ? vacuumCount() : undefined,
    );
    keeper.noteWrites(5);
    keeper.settle();
    await eventually(async () => ((await vacuumCount()) > afterGrowth ? true : undefined), 10_000);
    keeper.close();
  });

  it('cleans the indexes of dead rows only once no interactive statement has run for a while', async () => {
    const { database, statements } = recorded();
    let quiet = 0;
    let looked = 0;
    const quietFor = () => {
      looked += 1;
      return quiet;
    };
    const keeper = createVacuumScheduler({ ...handle, database, quietFor }, pino({ level: 'silent' }), {
      quietBeforeCleanupMs: 1_000,
      cleanupRetryMs: 10,
    });
    const cleanup = 'VACUUM (TRUNCATE false) documents';
    // 5,000 vectors stored: a refresh (bounded statements only), and then an index cleanup to come.
    keeper.noteWrites(5_000);
    await eventually(async () => (looked >= 3 ? true : undefined));
    expect(statements).toContain('VACUUM (INDEX_CLEANUP OFF, TRUNCATE false) documents');
    // An interactive statement ran just now, each time it looked: the unbounded cleanup waited.
    expect(statements).not.toContain(cleanup);
    quiet = 1_000;
    await eventually(async () => (statements.includes(cleanup) ? true : undefined));
    keeper.close();
  });

  it('leaves PostgreSQL to its autovacuum: no statement is sent', async () => {
    const statements: unknown[] = [];
    const postgres = {
      kind: 'postgres',
      database: { execute: async (statement: unknown) => statements.push(statement) },
    } as unknown as DatabaseHandle;
    // Fake timers: "nothing is sent, ever" is checked by running every timer, not by waiting.
    vi.useFakeTimers();
    try {
      const keeper = createVacuumScheduler(postgres, pino({ level: 'silent' }));
      keeper.noteWrites(100_000);
      keeper.settle();
      await vi.runAllTimersAsync();
      expect(statements).toEqual([]);
      keeper.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
