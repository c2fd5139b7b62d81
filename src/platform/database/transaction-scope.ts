import { AsyncLocalStorage } from 'node:async_hooks';
import type { SQL } from 'drizzle-orm';
import type { Database } from './connection.js';

// A request that changes configuration and its audit record are one transaction (docs/security.md#audit-log):
// either both are stored or neither. Rather than thread a transaction through every repository, the
// database every repository holds is a view that, inside `run`, sends each query into the scope's
// transaction; outside a scope (and once the scope has ended) it is the database itself.

type Scope = {
  transaction: Database;
  open: boolean;
  afterCommit: (() => Promise<unknown> | unknown)[];
  afterEnd: (() => Promise<unknown>)[];
};

export type TransactionScope = {
  /** The database to hand to repositories: inside `run`, its transaction. */
  database: Database;
  /**
   * Runs `work` in one transaction that every query made through `database` in its async context
   * joins (a repository's own `transaction()` becomes a savepoint). After the commit, runs what was
   * deferred with `afterCommit` (in order) and answers `work`'s result.
   *
   * `last` gives the transaction's last statement (an audit record), sent once `work` is done and
   * followed by the commit without waiting for its answer: on the embedded database the two cost one
   * trip to its thread. Should it fail, PostgreSQL turns that commit into a rollback, and `run`
   * rejects with its error.
   */
  run<T>(work: () => Promise<T>, last?: (result: T) => SQL): Promise<T>;
  /**
   * Runs `callback` once the current scope has committed, or at once outside a scope; a rollback
   * drops it. What other processes or nodes act on (a job queued in Redis, a worker woken) must not
   * see the change before it is committed.
   */
  afterCommit(callback: () => Promise<unknown> | unknown): Promise<void>;
  /** Whether the caller runs inside an open scope. */
  inScope(): boolean;
  /**
   * Runs `work` outside any scope once the current one has ended, committed or rolled back (at once
   * outside a scope; a failure is `work`'s own to report): its writes stand whatever became of the scope (the record of a refusal,
   * although the refused request's transaction rolls back). It cannot run sooner: the embedded
   * database runs one transaction at a time, so a write beside an open one would wait for it.
   */
  whenEnded(work: () => Promise<unknown>): Promise<void>;
};

export function createTransactionScope(root: Database): TransactionScope {
  const storage = new AsyncLocalStorage<Scope>();
  const current = () => {
    const scope = storage.getStore();
    return scope?.open ? scope : undefined;
  };
  const database = new Proxy(root, {
    get(target, property) {
      const source = current()?.transaction ?? target;
      const value = Reflect.get(source, property, source);
      return typeof value === 'function' ? value.bind(source) : value;
    },
  });
  return {
    database,
    async run(work, last) {
      const outer = current();
      if (outer) {
        const result = await work();
        if (last) await outer.transaction.execute(last(result));
        return result;
      }
      const scope: Scope = { transaction: root, open: false, afterCommit: [], afterEnd: [] };
      let lastStatement: Promise<unknown> | undefined;
      // What waits for the end runs whether the scope committed or not; it reports its own failures.
      const ended = async () => {
        for (const callback of scope.afterEnd) await storage.exit(callback).catch(() => undefined);
      };
      let result!: Awaited<ReturnType<typeof work>>;
      try {
        result = await root.transaction(async (transaction) => {
          scope.transaction = transaction as unknown as Database;
          scope.open = true;
          try {
            const result = await storage.run(scope, work);
            // `then` now, not `await`: drizzle sends a statement when it is first awaited, and it must
            // be on its way before the commit that the return below lets drizzle send.
            if (last) lastStatement = transaction.execute(last(result)).then(() => undefined);
            lastStatement?.catch(() => undefined);
            return result;
          } finally {
            // Work the scope started and left running (a timer, a poll) uses the database itself from now on.
            scope.open = false;
          }
        });
        await lastStatement;
      } finally {
        await ended();
      }
      for (const callback of scope.afterCommit) await callback();
      return result;
    },
    async afterCommit(callback) {
      const scope = current();
      if (scope) scope.afterCommit.push(callback);
      else await callback();
    },
    inScope: () => current() !== undefined,
    async whenEnded(work) {
      const scope = current();
      if (scope) scope.afterEnd.push(work);
      else await storage.exit(work);
    },
  };
}
