import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ownModuleUrl, runsSources } from './install-paths.js';

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
