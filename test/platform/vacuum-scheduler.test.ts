import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
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

describe('search statistics upkeep', () => {
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
