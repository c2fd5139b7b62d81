import { parentPort, workerData } from 'node:worker_threads';
import { embedWithWordVectors, loadWordVectors, type WordVectors } from './word-vectors.js';
import type { EmbeddingWorkerAnswer, EmbeddingWorkerRequest } from './worker-embedder.js';

// The word vectors live in this thread: loading them (a 300 MB JSON the first time, a 36 MB cache
// after) never stalls the requests of the process, and the table is only in memory once a Context
// needs it.

export type WordVectorsWorkerData = { sourcePath: string; cachePath?: string };

const { sourcePath, cachePath } = workerData.data as WordVectorsWorkerData;
let vectors: WordVectors | undefined;

parentPort!.on('message', ({ id, texts }: EmbeddingWorkerRequest) => {
  let answer: EmbeddingWorkerAnswer;
  try {
    vectors ??= loadWordVectors(sourcePath, cachePath);
    const loaded = vectors;
    answer = { id, vectors: texts.map((text) => embedWithWordVectors(loaded, text)) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(answer);
});
