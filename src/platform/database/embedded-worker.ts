import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import {
  carryError,
  type EmbeddedAnswer,
  type EmbeddedDatabaseSettings,
  type EmbeddedRequest,
} from './embedded-protocol.js';

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
type OpenTransaction = { transaction: Transaction; end(commit: boolean, answerId: number): void };

/** Rejects a transaction's callback so that PGlite rolls it back; not an error to report. */
const rollback = Symbol('rollback');

/** Transactions by the service's number, settled once open (their first statements may arrive first). */
const transactions = new Map<number, Promise<OpenTransaction>>();

/**
 * Each open transaction's last statement to arrive, settled when it has run: a commit may arrive
 * before its transaction's last statement has answered (transaction-scope.ts sends an audit record
 * and the commit together), and must run after it.
 */
const lastStatements = new Map<number, Promise<unknown>>();

function answer(message: EmbeddedAnswer, transfer: ArrayBuffer[] = []) {
  port.postMessage(message, transfer);
}

function begin(client: PGlite, id: number, transactionId: number) {
  let opened!: (open: OpenTransaction) => void;
  let failed!: (error: unknown) => void;
  const opening = new Promise<OpenTransaction>((resolve, reject) => {
    opened = resolve;
    failed = reject;
  });
  // Its statements see the failure themselves; nothing else must report it.
  opening.catch(() => undefined);
  transactions.set(transactionId, opening);
  let endAnswerId: number | undefined;
  let started = false;
  client
    .transaction(
      (transaction) =>
        new Promise<void>((resolve, reject) => {
          started = true;
          opened({
            transaction,
            end(commit, answerId) {
              endAnswerId = answerId;
              if (commit) resolve();
              else reject(rollback);
            },
          });
          answer({ type: 'answer', id, result: transactionId });
        }),
    )
    .then(
      () => answer({ type: 'answer', id: endAnswerId!, result: null }),
      (error) => {
        if (!started) {
          failed(error);
          return answer({ type: 'answer', id, error: carryError(error) });
        }
        answer({
          type: 'answer',
          id: endAnswerId!,
          ...(error === rollback ? { result: null } : { error: carryError(error) }),
        });
      },
    )
    .finally(() => transactions.delete(transactionId));
}

function openTransaction(transactionId: number): Promise<OpenTransaction> {
  return (
    transactions.get(transactionId) ?? Promise.reject(new Error(`Transaction ${transactionId} is not open`))
  );
}

async function perform(client: PGlite, request: EmbeddedRequest): Promise<unknown> {
  switch (request.type) {
    case 'query': {
      const target = request.transaction ? (await openTransaction(request.transaction)).transaction : client;
      return target.query(request.text, request.params, { rowMode: request.rowMode });
    }
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

function receive(client: PGlite, request: EmbeddedRequest) {
  if (request.type === 'begin') return begin(client, request.id, request.transaction);
  if (request.type === 'end') {
    const { id, commit, transaction } = request;
    const last = lastStatements.get(transaction);
    lastStatements.delete(transaction);
    Promise.all([openTransaction(transaction), last]).then(
      ([open]) => open.end(commit, id),
      (error) => answer({ type: 'answer', id, error: carryError(error) }),
    );
    return;
  }
  const performed = perform(client, request);
  if (request.type === 'query' && request.transaction)
    lastStatements.set(
      request.transaction,
      performed.catch(() => undefined),
    );
  performed.then(
    (result) =>
      answer({ type: 'answer', id: request.id, result }, result instanceof ArrayBuffer ? [result] : []),
    (error) => answer({ type: 'answer', id: request.id, error: carryError(error) }),
  );
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
