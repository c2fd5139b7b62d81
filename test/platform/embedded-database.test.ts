import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asBulkWork } from '../../src/platform/database/bulk-work.js';
import { type EmbeddedClient, startEmbeddedClient } from '../../src/platform/database/embedded-client.js';
import { createTurns } from '../../src/platform/database/embedded-turns.js';
import { isUniqueViolation } from '../../src/platform/database/errors.js';
import { startModuleWorker } from '../../src/platform/module-worker.js';

// The embedded database runs on a thread of its own; these hold its client to PGlite's semantics:
// a transaction's statements run inside it, every other statement waits for it, a failed callback
// rolls back, and PostgreSQL's error fields cross the thread.
let database: EmbeddedClient;
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const count = async () => Number(rowsOf(await database.query('SELECT count(*) AS n FROM items'))[0]!.n);

beforeAll(async () => {
  database = await startEmbeddedClient({});
  await database.exec('CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL)');
});
afterAll(() => database.close());

describe('the embedded database on its own thread', () => {
  it('commits a transaction, and rolls one back when its callback throws', async () => {
    await database.transaction(async (transaction) => {
      await transaction.query('INSERT INTO items VALUES (1, $1)', ['kept']);
    });
    const failure = database.transaction(async (transaction) => {
      await transaction.query('INSERT INTO items VALUES (2, $1)', ['dropped']);
      throw new Error('the caller changed its mind');
    });
    await expect(failure).rejects.toThrow('the caller changed its mind');
    expect(rowsOf(await database.query('SELECT id, name FROM items ORDER BY id'))).toEqual([
      { id: 1, name: 'kept' },
    ]);
  });

  it('runs a commit sent before its last statement answered after it, and rolls back when it failed', async () => {
    // transaction-scope.ts sends an audit record and the commit together; the record must be in it.
    let last!: Promise<unknown>;
    await database.transaction(async (transaction) => {
      await transaction.query('INSERT INTO items VALUES (10, $1)', ['change']);
      last = transaction.query('INSERT INTO items VALUES (11, $1)', ['its record']);
    });
    await last;
    expect(rowsOf(await database.query('SELECT id FROM items WHERE id >= 10 ORDER BY id'))).toEqual([
      { id: 10 },
      { id: 11 },
    ]);
    let failed!: Promise<unknown>;
    await database.transaction(async (transaction) => {
      await transaction.query('INSERT INTO items VALUES (12, $1)', ['change']);
      failed = transaction.query('INSERT INTO items VALUES (11, $1)', ['a duplicate record']);
      failed.catch(() => undefined);
    });
    await expect(failed).rejects.toThrow(/duplicate key/);
    expect(rowsOf(await database.query('SELECT id FROM items WHERE id >= 10 ORDER BY id'))).toEqual([
      { id: 10 },
      { id: 11 },
    ]);
    await database.query('DELETE FROM items WHERE id >= 10');
  });

  it('makes a statement from outside wait until the open transaction ends', async () => {
    const before = await count();
    let outsideAnswered = false;
    let outside: Promise<number> | undefined;
    await database.transaction(async (inside) => {
      await inside.query('INSERT INTO items VALUES (10, $1)', ['in a transaction']);
      outside = count().then((seen) => {
        outsideAnswered = true;
        return seen;
      });
      // Sent after the outside statement and answered while it still waits.
      await inside.query('SELECT 1');
      expect(outsideAnswered).toBe(false);
    });
    expect(await outside).toBe(before + 1);
  });

  it('runs concurrent transactions one at a time, none losing another one’s write', async () => {
    await database.exec('CREATE TABLE counter (value int); INSERT INTO counter VALUES (0)');
    await Promise.all(
      Array.from({ length: 40 }, () =>
        database.transaction(async (transaction) => {
          const [row] = rowsOf(await transaction.query('SELECT value FROM counter'));
          await transaction.query('UPDATE counter SET value = $1', [Number(row!.value) + 1]);
        }),
      ),
    );
    expect(rowsOf(await database.query('SELECT value FROM counter'))).toEqual([{ value: 40 }]);
  });

  it('runs waiting interactive statements before waiting bulk work, and bulk work still in turn', async () => {
    const finished: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // An open transaction holds the database while the others queue up behind it.
    const holder = database.transaction(async (transaction) => {
      await transaction.query('SELECT 1');
      await held;
    });
    const bulk = Array.from({ length: 6 }, (_, index) =>
      asBulkWork(() =>
        database.transaction(async (transaction) => {
          await transaction.query('SELECT 1');
        }),
      ).then(() => finished.push(`bulk ${index}`)),
    );
    const interactive = Array.from({ length: 2 }, (_, index) =>
      database.query('SELECT 1').then(() => finished.push(`interactive ${index}`)),
    );
    // Sent last, answered before the bulk work queued ahead of them.
    release();
    await Promise.all([holder, ...bulk, ...interactive]);
    expect(finished.slice(0, 2).sort()).toEqual(['interactive 0', 'interactive 1']);
    expect(finished).toHaveLength(8);
  });

  it('keeps bulk work moving while interactive statements keep coming', () => {
    const turns = createTurns<string>(4);
    for (let index = 0; index < 3; index += 1) turns.add('bulk', `bulk ${index}`);
    for (let index = 0; index < 10; index += 1) turns.add('interactive', `interactive ${index}`);
    const order = Array.from({ length: 13 }, () => turns.next());
    // Every fifth turn is bulk while both wait; then the rest in their order.
    expect(order.slice(0, 5)).toEqual([
      'interactive 0',
      'interactive 1',
      'interactive 2',
      'interactive 3',
      'bulk 0',
    ]);
    expect(order.filter((work) => work?.startsWith('bulk'))).toEqual(['bulk 0', 'bulk 1', 'bulk 2']);
    expect(turns.next()).toBeUndefined();
  });

  it('carries PostgreSQL’s error fields across, and answers rows in either row mode', async () => {
    const duplicate = await database
      .query('INSERT INTO items VALUES (1, $1)', ['again'])
      .catch((error) => error);
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(duplicate).toMatchObject({ code: '23505', constraint: 'items_pkey' });
    const failedInside = await database
      .transaction((transaction) => transaction.query('INSERT INTO items VALUES (NULL, $1)', ['x']))
      .catch((error) => error);
    expect(failedInside).toMatchObject({ code: '23502' });
    const arrays = await database.query('SELECT id, name FROM items WHERE id = $1', [1], {
      rowMode: 'array',
    });
    expect(rowsOf(arrays)).toEqual([[1, 'kept']]);
  });

  it('dumps its data dir, and a new database starts from the dump', async () => {
    const dump = await database.dump();
    const copy = await startEmbeddedClient({ snapshot: await dump.arrayBuffer() });
    try {
      expect(rowsOf(await copy.query('SELECT name FROM items WHERE id = 1'))).toEqual([{ name: 'kept' }]);
    } finally {
      await copy.close();
    }
    await expect(copy.query('SELECT 1')).rejects.toThrow(/closed/);
  });

  it('tells when its thread ends unexpectedly, and fails every statement after; a close tells nothing', async () => {
    let thread: Worker | undefined;
    const told: string[] = [];
    const client = await startEmbeddedClient(
      {},
      {
        onStopped: (error) => told.push(error.message),
        startWorker: (name, data) => {
          thread = startModuleWorker(name, data);
          return thread;
        },
      },
    );
    expect(rowsOf(await client.query('SELECT 1 AS one'))).toEqual([{ one: 1 }]);
    await thread!.terminate();
    await expect(client.query('SELECT 1')).rejects.toThrow(/thread ended/);
    expect(told).toEqual([expect.stringMatching(/thread ended/)]);
    await client.close();

    const quiet: string[] = [];
    const closed = await startEmbeddedClient({}, { onStopped: (error) => quiet.push(error.message) });
    await closed.close();
    expect(quiet).toEqual([]);
  });
});
