import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/platform/database/connection.js';
import { createWordVectorEmbedder } from '../src/retrieval/embedders/word-vector-embedder.js';
import { ensureBuilt } from './helpers/built-package.js';
import { testModelCacheDirectory } from './helpers/model-cache.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshotPath: string;
  }
}

/**
 * Builds `dist/` when a source changed (process tests run it), and migrates one PGlite, dumped once per
 * run; every test file starts its own database from it. Fills the offline models' cache once, so test
 * files running side by side do not each convert the word vectors.
 */
export default async function setup(project: TestProject) {
  ensureBuilt();
  const wordVectors = createWordVectorEmbedder({ cacheDirectory: testModelCacheDirectory });
  await wordVectors.embed(['warm'], 'query');
  await wordVectors.close();
  const directory = mkdtempSync(path.join(tmpdir(), 'lectern-test-'));
  const handle = await openDatabase({ dataDirectory: 'memory' }, () => undefined);
  const snapshot = await handle.dump!();
  await handle.close();
  const snapshotPath = path.join(directory, 'pglite-snapshot.tar');
  writeFileSync(snapshotPath, Buffer.from(await snapshot.arrayBuffer()));
  project.provide('pgliteSnapshotPath', snapshotPath);
  return () => rmSync(directory, { recursive: true, force: true });
}
