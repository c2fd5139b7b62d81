/**
 * What the service's thread and the embedded database's worker thread (embedded-worker.ts) say to
 * each other. Every request carries an id; its answer carries the same id and either a result or
 * an error. Statements of a transaction name it, so they run inside it while every other statement
 * waits, as they would on PGlite in one thread. The service's thread numbers its transactions, so its
 * first statement is sent with `begin` instead of after `begin`'s answer (a message each way costs
 * ~0.15 ms here).
 */
export type EmbeddedDatabaseSettings = {
  /** The data dir on disk; none keeps the database in memory. */
  dataDir?: string;
  /** A dumped data dir (PGlite's tarball) to start from instead of initdb. */
  snapshot?: ArrayBuffer;
  /** `shared_buffers` of the embedded PostgreSQL, e.g. `32MB`. */
  sharedBuffers?: string;
};

export type RowMode = 'array' | 'object';

/**
 * Which queue a statement or a transaction waits in: a bulk one runs only when no interactive one
 * waits (but at least one in every few, so bulk work always moves). A transaction's statements
 * follow its `begin`.
 */
export type Lane = 'interactive' | 'bulk';

export type EmbeddedRequest =
  | {
      id: number;
      type: 'query';
      text: string;
      params?: unknown[];
      rowMode?: RowMode;
      transaction?: number;
      lane?: Lane;
    }
  | { id: number; type: 'exec'; text: string; lane?: Lane }
  | { id: number; type: 'begin'; transaction: number; lane?: Lane }
  | { id: number; type: 'end'; transaction: number; commit: boolean }
  | { id: number; type: 'dump' }
  | { id: number; type: 'close' };

/**
 * An error as it crosses the thread boundary: its message and its primitive fields (PostgreSQL's
 * SQLSTATE `code`, `constraint`, `detail`, …), which is what callers look at.
 */
export type CarriedError = { message: string; fields: Record<string, string | number | boolean> };

export type EmbeddedAnswer =
  | { type: 'ready' }
  | { type: 'failed'; error: CarriedError }
  | { type: 'answer'; id: number; result?: unknown; error?: CarriedError };

export function carryError(error: unknown): CarriedError {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: CarriedError['fields'] = { name: error.name };
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string;
  }
  return { message: error.message, fields };
}

export function rebuildError({ message, fields }: CarriedError): Error {
  return Object.assign(new Error(message), fields);
}
