import { sql } from 'drizzle-orm';
import pg from 'pg';
import { expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../../src/platform/database/connection.js';
import { createPostgresDatabase } from '../helpers/postgres-database.js';
import { databaseUrl } from '../helpers/test-app.js';

// A PostgreSQL restart or failover ends the service's idle connections. The pool must drop them and
// carry on: an unhandled pool error would end the whole process (it once did, in the test suite).

it.runIf(databaseUrl)(
  'survives the server ending its idle connections, and the next query works',
  async () => {
    const created = await createPostgresDatabase(databaseUrl!, 'lectern_pool');
    const warnings: string[] = [];
    const handle = await openDatabase({ databaseUrl: created.url }, (message) => warnings.push(message));
    try {
      await handle.database.execute(sql`select 1`);
      const name = new URL(created.url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      try {
        const ended = await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        expect(ended.rowCount).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      await expect
        .poll(() => warnings.some((warning) => warning.includes('idle PostgreSQL connection')))
        .toBe(true);
      const rows = rowsOf<{ answer: number }>(await handle.database.execute(sql`select 1 as answer`));
      expect(rows[0]?.answer).toBe(1);
    } finally {
      await handle.close();
      await created.drop();
    }
  },
);
