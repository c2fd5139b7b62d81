import { startModuleWorker } from '../module-worker.js';
import { createWorkerCalls, type Unnumbered } from '../worker-calls.js';
import { isBulkWork } from './bulk-work.js';
import {
  type EmbeddedAnswer,
  type EmbeddedDatabaseSettings,
  type EmbeddedRequest,
  type Lane,
  type RowMode,
  rebuildError,
} from './embedded-protocol.js';

type QueryOptions = { rowMode?: RowMode };
type Queryable = {
  query(text: string, params?: unknown[], options?: QueryOptions): Promise<unknown>;
};

/**
 * The embedded database as the service's thread sees it: what drizzle's PGlite driver calls
 * (`query`, and `query` inside `transaction`), each statement answered by the worker thread that owns
 * PGlite (embedded-worker.ts). The service's event loop keeps answering while a statement runs.
 */
export type EmbeddedClient = Queryable & {
  transaction<T>(callback: (transaction: Queryable) => Promise<T>): Promise<T>;
  /** Several statements in one string, no parameters (extension and session settings). */
  exec(text: string): Promise<void>;
  /** The whole data dir as a tarball (backups, test snapshots). */
  dump(): Promise<Blob>;
  /** Milliseconds since the last interactive statement was answered; 0 while one runs. */
  quietFor(): number;
  close(): Promise<void>;
};

type Answer = Extract<EmbeddedAnswer, { type: 'answer' }>;

/**
 * Starts the worker and waits until PGlite is open in it; rejects with PGlite's own error when it
 * does not open (a damaged data dir or template), after the worker has ended.
 */
export async function startEmbeddedClient(
  settings: EmbeddedDatabaseSettings,
  options: {
    /** Told when the thread fails or ends after it opened, other than by `close`: every statement fails from then on. */
    onStopped?: (error: Error) => void;
    /** How the thread is started (the tests keep a hold of it). */
    startWorker?: typeof startModuleWorker;
  } = {},
): Promise<EmbeddedClient> {
  const { onStopped = () => undefined, startWorker = startModuleWorker } = options;
  const worker = startWorker('platform/database/embedded-worker', settings);
  const calls = createWorkerCalls<EmbeddedRequest, Answer>(worker);
  let lastTransaction = 0;
  let opened = false;
  let closing = false;

  function stopped(error: Error) {
    calls.stop(error);
    if (opened && !closing) onStopped(error);
  }

  await new Promise<void>((resolve, reject) => {
    worker.on('message', (message: EmbeddedAnswer) => {
      if (message.type === 'ready') return resolve();
      if (message.type === 'failed') {
        reject(rebuildError(message.error));
        void worker.terminate();
        return;
      }
      calls.settle(message);
    });
    worker.on('error', (error) => {
      reject(error);
      stopped(new Error(`The embedded database's thread failed: ${error.message}`));
    });
    worker.on('exit', (code) => {
      reject(new Error(`The embedded database's thread ended (exit code ${code}) before it opened`));
      stopped(new Error(`The embedded database's thread ended (exit code ${code})`));
    });
  });
  opened = true;

  // Open and idle: the database no longer keeps the process alive by itself.
  worker.unref();

  async function send(request: Unnumbered<EmbeddedRequest>, transfer?: ArrayBuffer[]): Promise<unknown> {
    const answer = await calls.call(request, transfer);
    if (answer.error) throw rebuildError(answer.error);
    return answer.result;
  }

  /** The lane of a statement or transaction begun now (bulk-work.ts). */
  const lane = (): Lane => (isBulkWork() ? 'bulk' : 'interactive');

  /** Interactive statements and transactions not yet answered, and when the last one was. */
  let interactiveRunning = 0;
  let interactiveAnsweredAt = performance.now();
  /** Counts `work` as interactive while it runs, unless it is bulk work. */
  async function counted<Result>(work: () => Promise<Result>): Promise<Result> {
    if (isBulkWork()) return work();
    interactiveRunning += 1;
    try {
      return await work();
    } finally {
      interactiveRunning -= 1;
      interactiveAnsweredAt = performance.now();
    }
  }

  return {
    query: (text, params, options) =>
      counted(() => send({ type: 'query', text, params, rowMode: options?.rowMode, lane: lane() })),
    transaction: (callback) => counted(() => runTransaction(callback)),
    async exec(text) {
      await send({ type: 'exec', text, lane: lane() });
    },
    async dump() {
      return new Blob([(await send({ type: 'dump' })) as ArrayBuffer]);
    },
    quietFor: () => (interactiveRunning > 0 ? 0 : performance.now() - interactiveAnsweredAt),
    async close() {
      closing = true;
      await send({ type: 'close' }).catch(() => undefined);
      calls.stop(new Error('The embedded database is closed'));
      await worker.terminate();
    },
  };

  /** Runs `callback`'s statements as one transaction on the worker (they run when its turn comes). */
  async function runTransaction<T>(callback: (transaction: Queryable) => Promise<T>): Promise<T> {
    const transaction = ++lastTransaction;
    // Not awaited before the first statement: the worker runs that statement once BEGIN has.
    const begun = send({ type: 'begin', transaction, lane: lane() });
    begun.catch(() => undefined);
    let result: Awaited<ReturnType<typeof callback>>;
    try {
      result = await callback({
        query: (text, params, options) =>
          send({ type: 'query', text, params, rowMode: options?.rowMode, transaction }),
      });
    } catch (error) {
      // A transaction that never began is why its statements failed: that is the error to report.
      await begun;
      await send({ type: 'end', transaction, commit: false }).catch(() => undefined);
      throw error;
    }
    await begun;
    await send({ type: 'end', transaction, commit: true });
    return result;
  }
}
