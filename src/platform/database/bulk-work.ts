import { AsyncLocalStorage } from 'node:async_hooks';

// On the embedded database one statement runs at a time, so whose statement runs next decides how
// long a request waits. Statements made inside `asBulkWork` (indexing, embedding, staging a large
// write, VACUUM) wait behind those of interactive requests (embedded-worker.ts); PostgreSQL runs
// statements side by side and ignores the mark.

const bulk = new AsyncLocalStorage<true>();

/** Runs `work` with every database statement it makes marked as bulk. */
export function asBulkWork<Result>(work: () => Promise<Result>): Promise<Result> {
  return bulk.run(true, work);
}

/** Whether the caller runs inside `asBulkWork`. */
export function isBulkWork(): boolean {
  return bulk.getStore() === true;
}
