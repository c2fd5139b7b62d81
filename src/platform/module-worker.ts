import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ownModuleUrl, runsSources } from './install-paths.js';
import { createWorkerCalls, type Unnumbered, type WorkerCalls } from './worker-calls.js';

// From the build a worker module is JavaScript. From the sources (tests, `npm run dev`) it is
// TypeScript, and a worker thread does not inherit tsx's loader: it registers tsx's ESM API first
// (tsx's CommonJS build registers a path that does not exist from a worker).
const workerBootstrap = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.entry.typescriptLoader) (await import(workerData.entry.typescriptLoader)).register();
  await import(workerData.entry.url);
})();
`;

/** tsx's ESM API, found through its package.json (test runners do not all give `import.meta.resolve`). */
function tsxLoaderUrl(): string {
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  return pathToFileURL(path.join(path.dirname(packageJson), 'dist/esm/api/index.mjs')).href;
}

/**
 * Starts a worker thread running the package's module `src/<name>.ts` (or its build). `data` reaches
 * the module as `workerData.data`.
 */
export function startModuleWorker(name: string, data?: unknown): Worker {
  const url = ownModuleUrl(name);
  const typescriptLoader = runsSources ? tsxLoaderUrl() : undefined;
  return new Worker(workerBootstrap, { eval: true, workerData: { entry: { url, typescriptLoader }, data } });
}

export type LazyModuleWorker<Request extends { id: number }, Answer extends { id: number }> = {
  /** Sends a request, starting the worker first if it is not running; resolves with its answer. */
  call(request: Unnumbered<Request>, transfer?: ArrayBuffer[]): Promise<Answer>;
  /** Fails the calls waiting and stops the worker. */
  close(): Promise<void>;
};

/**
 * A module worker (`startModuleWorker`) started with its first call, and again with the next call
 * after it failed or exited, answering numbered calls (worker-calls.ts). `what` names it in errors.
 */
export function lazyModuleWorker<Request extends { id: number }, Answer extends { id: number }>(
  name: string,
  what: string,
): LazyModuleWorker<Request, Answer> {
  type Started = { worker: Worker; calls: WorkerCalls<Request, Answer> };
  let current: Started | undefined;

  function start(): Started {
    const worker = startModuleWorker(name);
    const calls = createWorkerCalls<Request, Answer>(worker);
    const started = { worker, calls };
    const stopped = (error: Error) => {
      if (current === started) current = undefined;
      calls.stop(error);
    };
    worker.on('message', (answer: Answer) => calls.settle(answer));
    worker.on('error', stopped);
    worker.on('exit', (code) => stopped(new Error(`the ${what} stopped (exit code ${code})`)));
    return started;
  }

  return {
    call(request, transfer) {
      current ??= start();
      return current.calls.call(request, transfer);
    },
    async close() {
      const closing = current;
      if (!closing) return;
      current = undefined;
      closing.calls.stop(new Error(`the ${what} is closed`));
      await closing.worker.terminate();
    },
  };
}
