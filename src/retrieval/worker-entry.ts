import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

// From the compiled package a worker module is JavaScript. From source (tests, `npm run dev`) it is
// TypeScript, and the worker registers tsx's loader before importing it.
const workerBootstrap = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.entry.typescriptLoader) (await import(workerData.entry.typescriptLoader)).register();
  await import(workerData.entry.url);
})();
`;

/**
 * Starts a worker thread running the module `name` (without extension) beside `importMetaUrl`,
 * whichever of the compiled or source trees that caller runs from. `data` reaches the module as
 * `workerData.data`.
 */
export function startModuleWorker(importMetaUrl: string, name: string, data?: unknown): Worker {
  const fromSource = importMetaUrl.endsWith('.ts');
  const url = new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, importMetaUrl).href;
  let typescriptLoader: string | undefined;
  if (fromSource) {
    // tsx's ESM API (its CommonJS build registers a path that does not exist from a worker).
    const packageJson = createRequire(importMetaUrl).resolve('tsx/package.json');
    typescriptLoader = pathToFileURL(path.join(path.dirname(packageJson), 'dist/esm/api/index.mjs')).href;
  }
  return new Worker(workerBootstrap, { eval: true, workerData: { entry: { url, typescriptLoader }, data } });
}
