import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { startEmbeddedClient } from '../src/platform/database/embedded-client.js';
import { format, measurePair, percentile } from './measure.js';

/**
 * What a statement costs on the embedded database's own thread (the service's way) against PGlite on
 * the calling thread (how the service ran it before), in the same run and alternating rounds: the
 * price of the message to the database's thread and back, per statement and per transaction.
 */
type Queryable = { query(text: string, params?: unknown[]): Promise<unknown> };
type Database = Queryable & {
  transaction<T>(callback: (transaction: Queryable) => Promise<T>): Promise<T>;
};

const total = Number(process.env.BENCH_STATEMENTS ?? 4000);

async function prepare(database: Database) {
  await database.query('CREATE TABLE items (id serial PRIMARY KEY, name text, payload jsonb)');
  for (let row = 0; row < 100; row += 1) {
    await database.query('INSERT INTO items (name, payload) VALUES ($1, $2)', [`item ${row}`, '{"a":1}']);
  }
}

const workloads: [string, (database: Database) => Promise<unknown>][] = [
  ['SELECT 1', (database) => database.query('SELECT 1')],
  [
    'INSERT one row',
    (database) => database.query('INSERT INTO items (name, payload) VALUES ($1, $2)', ['new', '{"b":2}']),
  ],
  ['SELECT 100 rows', (database) => database.query('SELECT * FROM items ORDER BY id LIMIT 100')],
  [
    'transaction of 3',
    (database) =>
      database.transaction(async (transaction) => {
        await transaction.query('SELECT 1');
        await transaction.query('UPDATE items SET name = $1 WHERE id = 1', ['renamed']);
        await transaction.query('SELECT name FROM items WHERE id = 1');
      }),
  ],
];

async function main() {
  const onThisThread = (await PGlite.create({ extensions: { vector } })) as unknown as Database & {
    close(): Promise<void>;
  };
  const onItsThread = await startEmbeddedClient({});
  try {
    await prepare(onThisThread);
    await prepare(onItsThread);
    console.log(`database-thread: in-memory PGlite, ${total} statements each way, sequential`);
    for (const [name, run] of workloads) {
      const pair = await measurePair(
        async () => void (await run(onThisThread)),
        async () => void (await run(onItsThread)),
        { total, concurrency: 1, rounds: 10 },
      );
      const here = percentile(pair.baseline, 0.5);
      const there = percentile(pair.candidate, 0.5);
      console.log(
        `  ${name.padEnd(18)} this thread p50 ${format(here)}  |  its own thread p50 ${format(there)}  ` +
          `(${(there / here).toFixed(2)}×, +${format(percentile(pair.roundOverheads, 0.5))} median of rounds)`,
      );
    }
  } finally {
    await onThisThread.close();
    await onItsThread.close();
  }
}

await main();
