import type { Worker } from 'node:worker_threads';
import type { Fusion } from '../hybrid-ranking.js';
import { type Embedder, type EmbeddingPurpose, normalise } from './embedder.js';

/** What an embedding worker thread is sent, and what it answers (vectors in the order of `texts`). */
export type EmbeddingWorkerRequest = { id: number; texts: string[] };
export type EmbeddingWorkerAnswer = { id: number; vectors?: ArrayLike<number>[]; error?: string };

type Pending = {
  texts: string[];
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: Error) => void;
};

export type WorkerEmbedder = Embedder & { close(): Promise<void> };

export type WorkerEmbedderOptions = {
  model: string;
  /** Starts the thread; called on first use and again after the thread stopped. */
  start: () => Worker;
  /** Texts per call when indexing: a search waits at most one such batch. */
  documentBatchSize: number;
  fusion?: Fusion;
};

/**
 * An offline model in a worker thread, so that inference never stalls the requests of the process.
 * One call at a time: every waiting query goes in the next call, before any document batch. The
 * thread holds the process open only while it has work.
 */
export function createWorkerEmbedder(options: WorkerEmbedderOptions): WorkerEmbedder {
  let worker: Worker | undefined;
  let nextId = 0;
  let inFlight: { id: number; requests: Pending[] } | undefined;
  const queries: Pending[] = [];
  const documents: Pending[] = [];

  function start(): Worker {
    const started = options.start();
    started.unref();
    started.on('message', (answer: EmbeddingWorkerAnswer) => settle(answer));
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

  function settle(answer: EmbeddingWorkerAnswer) {
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
    const request: EmbeddingWorkerRequest = {
      id: inFlight.id,
      texts: requests.flatMap((pending) => pending.texts),
    };
    worker.postMessage(request);
  }

  function enqueue(texts: string[], purpose: EmbeddingPurpose): Promise<Float32Array[]> {
    return new Promise((resolve, reject) => {
      (purpose === 'query' ? queries : documents).push({ texts, resolve, reject });
      dispatch();
    });
  }

  return {
    model: options.model,
    fusion: options.fusion,
    async embed(texts, purpose) {
      if (texts.length === 0) return [];
      if (purpose === 'query') return enqueue(texts, purpose);
      const batches: Promise<Float32Array[]>[] = [];
      for (let start = 0; start < texts.length; start += options.documentBatchSize) {
        batches.push(enqueue(texts.slice(start, start + options.documentBatchSize), purpose));
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
