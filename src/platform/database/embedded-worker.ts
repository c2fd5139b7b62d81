import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import {
  type CarriedError,
  carryError,
  type EmbeddedAnswer,
  type EmbeddedDatabaseSettings,
  type EmbeddedRequest,
} from './embedded-protocol.js';
import { createTurns } from './embedded-turns.js';

/**
 * The embedded database's thread: PGlite (PostgreSQL compiled to WebAssembly) runs every statement
 * synchronously on the thread that owns it, so a statement that writes thousands of postings or a
 * VACUUM held the service's event loop for seconds. Here it holds only this thread; the service's
 * thread sends statements and awaits their answers (embedded-client.ts).
 */
const port = parentPort!;
const { dataDir, snapshot, sharedBuffers } = workerData.data as EmbeddedDatabaseSettings;

/**
 * Dates, timestamps and intervals stay the text PostgreSQL sends: drizzle maps them itself. Set on
 * the client once, where drizzle would hand them to PGlite with every statement (PGlite merges a
 * statement's parsers into its table of every type's parser: 0.16 ms of a 0.2 ms INSERT).
 */
const drizzleTextParsers = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map(
    (type) => [type, (value: string) => value],
  ),
);

type Transaction = Parameters<Parameters<PGlite['transaction']>[0]>[0];

/** Rejects a transaction's callback so that PGlite rolls it back; not an error to report. */
const rollback = Symbol('rollback');

type Statement = Extract<EmbeddedRequest, { type: 'query' } | { type: 'end' }>;

/** The transaction the database is running: its statements run in order as they arrive. */
type Running = {
  id: number;
  open?: { transaction: Transaction; finish(commit: boolean): void };
  /** The `end` request's id, once it has come. */
  endId?: number;
  draining: boolean;
};

/** What waits for a turn: a plain statement, a transaction (its `begin`), a dump or the close. */
type TurnRequest = Exclude<EmbeddedRequest, { type: 'end' }>;

/** Plain statements and transactions waiting for their turn (embedded-turns.ts). */
const turns = createTurns<TurnRequest>();
/** Whether a statement or a transaction is running: the next waits until it is done. */
let busy = false;
let running: Running | undefined;
/** The statements (and `end`) of each transaction, by the service's number, in the order they came. */
const statementsOf = new Map<number, Statement[]>();
/** Transactions that could not begin: their statements are answered with why. */
const failedTransactions = new Map<number, CarriedError>();

function answer(message: EmbeddedAnswer, transfer: ArrayBuffer[] = []) {
  port.postMessage(message, transfer);
}

function queueOf(transactionId: number): Statement[] {
  let queue = statementsOf.get(transactionId);
  if (!queue) {
    queue = [];
    statementsOf.set(transactionId, queue);
  }
  return queue;
}

/** Runs the running transaction's statements that have come, in order, until its `end`. */
async function drain(transaction: Running): Promise<void> {
  if (transaction.draining || !transaction.open) return;
  transaction.draining = true;
  const queue = queueOf(transaction.id);
  while (queue.length > 0 && transaction.endId === undefined) {
    const request = queue.shift()!;
    if (request.type === 'end') {
      transaction.endId = request.id;
      transaction.open.finish(request.commit);
      break;
    }
    try {
      const result = await transaction.open.transaction.query(request.text, request.params, {
        rowMode: request.rowMode,
      });
      answer({ type: 'answer', id: request.id, result });
    } catch (error) {
      answer({ type: 'answer', id: request.id, error: carryError(error) });
    }
  }
  transaction.draining = false;
}

function begin(client: PGlite, request: Extract<EmbeddedRequest, { type: 'begin' }>, done: () => void) {
  const transaction: Running = { id: request.transaction, draining: false };
  running = transaction;
  queueOf(transaction.id);
  let started = false;
  client
    .transaction(
      (open) =>
        new Promise<void>((resolve, reject) => {
          started = true;
          transaction.open = {
            transaction: open,
            finish: (commit) => (commit ? resolve() : reject(rollback)),
          };
          answer({ type: 'answer', id: request.id, result: transaction.id });
          void drain(transaction);
        }),
    )
    .then(
      () => answer({ type: 'answer', id: transaction.endId!, result: null }),
      (error) => {
        if (!started) {
          const carried = carryError(error);
          failedTransactions.set(transaction.id, carried);
          answer({ type: 'answer', id: request.id, error: carried });
          for (const waiting of queueOf(transaction.id)) refuse(waiting, carried);
          return;
        }
        answer({
          type: 'answer',
          id: transaction.endId!,
          ...(error === rollback ? { result: null } : { error: carryError(error) }),
        });
      },
    )
    .finally(() => {
      statementsOf.delete(transaction.id);
      running = undefined;
      done();
    });
}

/** Answers a statement of a transaction that could not begin. */
function refuse(request: Statement, error: CarriedError) {
  if (request.type === 'end') failedTransactions.delete(request.transaction);
  answer({ type: 'answer', id: request.id, error });
}

async function perform(client: PGlite, request: Exclude<TurnRequest, { type: 'begin' }>): Promise<unknown> {
  switch (request.type) {
    case 'query':
      return client.query(request.text, request.params, { rowMode: request.rowMode });
    case 'exec':
      await client.exec(request.text);
      return null;
    case 'dump': {
      const tarball = await client.dumpDataDir('none');
      return tarball.arrayBuffer();
    }
    case 'close':
      await client.close();
      return null;
    default:
      throw new Error(`Unknown request ${(request as { type: string }).type}`);
  }
}

/** Starts the next waiting statement or transaction, once the database is free. */
function pump(client: PGlite) {
  if (busy) return;
  const next = turns.next();
  if (!next) return;
  busy = true;
  const done = () => {
    busy = false;
    pump(client);
  };
  if (next.type === 'begin') return begin(client, next, done);
  perform(client, next)
    .then(
      (result) =>
        answer({ type: 'answer', id: next.id, result }, result instanceof ArrayBuffer ? [result] : []),
      (error) => answer({ type: 'answer', id: next.id, error: carryError(error) }),
    )
    .finally(done);
}

function receive(client: PGlite, request: EmbeddedRequest) {
  if (request.type === 'end' || (request.type === 'query' && request.transaction !== undefined)) {
    const statement = request as Statement & { transaction: number };
    const failure = failedTransactions.get(statement.transaction);
    if (failure) return refuse(statement, failure);
    queueOf(statement.transaction).push(statement);
    if (running?.id === statement.transaction) void drain(running);
    return;
  }
  turns.add('lane' in request && request.lane === 'bulk' ? 'bulk' : 'interactive', request as TurnRequest);
  pump(client);
}

try {
  const client = await PGlite.create({
    dataDir,
    loadDataDir: snapshot && new Blob([snapshot]),
    extensions: { vector },
    // The buffer cache lives in the WASM heap and is most of an idle service's memory; the files
    // underneath are still cached by the operating system (bench/memory.ts measures both sizes).
    ...(sharedBuffers && { postgresqlconf: [`shared_buffers = ${sharedBuffers}`] }),
  });
  Object.assign(client.parsers, drizzleTextParsers);
  port.on('message', (request: EmbeddedRequest) => receive(client, request));
  answer({ type: 'ready' });
} catch (error) {
  answer({ type: 'failed', error: carryError(error) });
  port.close();
}
