import { slicesOf } from '../../core/slices.js';
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

/** What the embedder needs of a worker: a thread's `Worker`, or a child process (embedding-process.ts). */
export type EmbeddingWorker = {
  postMessage(request: EmbeddingWorkerRequest): void;
  on(event: 'message', listener: (answer: EmbeddingWorkerAnswer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: () => void): unknown;
  ref(): void;
  unref(): void;
  terminate(): Promise<unknown>;
};

export type WorkerEmbedderOptions = {
  model: string;
  /** Starts the worker; called on first use and again after the worker stopped. */
  start: () => EmbeddingWorker;
  /** Texts per call when indexing: a search waits at most one such batch. */
  documentBatchSize: number;
  /** Worker threads at most (1 by default); each loads the model when it is first needed. */
  threads?: number;
  fusion?: Fusion;
};

/** One worker thread of the embedder and the call it is running. */
type Thread = { worker?: EmbeddingWorker; inFlight?: { id: number; requests: Pending[] } };

/**
 * An offline model in worker threads, so that inference never stalls the requests of the process.
 * Each thread runs one call at a time: every waiting query goes in the next call, before any
 * document batch. A thread starts when there is work for it and holds the process open only while
 * it has work.
 */
export function createWorkerEmbedder(options: WorkerEmbedderOptions): WorkerEmbedder {
  const threads: Thread[] = Array.from({ length: Math.max(1, options.threads ?? 1) }, () => ({}));
  let nextId = 0;
  const queries: Pending[] = [];
  const documents: Pending[] = [];

  function start(thread: Thread): EmbeddingWorker {
    const started = options.start();
    started.unref();
    started.on('message', (answer: EmbeddingWorkerAnswer) => settle(thread, answer));
    started.on('error', (error) => fail(thread, error));
    started.on('exit', () => {
      if (thread.worker === started) thread.worker = undefined;
      fail(thread, new Error('the embedding worker stopped'));
    });
    return started;
  }

  function fail(thread: Thread, error: Error) {
    const requests = thread.inFlight?.requests ?? [];
    thread.inFlight = undefined;
    for (const request of requests) request.reject(error);
    dispatch();
  }

  function settle(thread: Thread, answer: EmbeddingWorkerAnswer) {
    const { inFlight } = thread;
    if (!inFlight || inFlight.id !== answer.id) return;
    const { requests } = inFlight;
    thread.inFlight = undefined;
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

  /** Gives every idle thread the next call: all waiting queries, else one document batch. */
  function dispatch() {
    // A thread already running keeps its worker warm: start another only when every running one is busy.
    const idle = [...threads].sort((left, right) => Number(!left.worker) - Number(!right.worker));
    for (const thread of idle) {
      if (thread.inFlight) continue;
      const requests = queries.length > 0 ? queries.splice(0) : documents.splice(0, 1);
      if (requests.length === 0) {
        thread.worker?.unref();
        continue;
      }
      thread.worker ??= start(thread);
      thread.worker.ref();
      thread.inFlight = { id: nextId++, requests };
      const request: EmbeddingWorkerRequest = {
        id: thread.inFlight.id,
        texts: requests.flatMap((pending) => pending.texts),
      };
      thread.worker.postMessage(request);
    }
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
      const batches = slicesOf(texts, options.documentBatchSize).map((slice) => enqueue(slice, purpose));
      return (await Promise.all(batches)).flat();
    },
    async close() {
      const running = threads.flatMap((thread) => (thread.worker ? [thread.worker] : []));
      for (const thread of threads) thread.worker = undefined;
      await Promise.all(running.map((worker) => worker.terminate()));
    },
  };
}

/**
 * One model's embedder over two: `queries` for what a request waits for, `documents` for indexing
 * (bulk work, which may run at a lower priority). A query never waits behind a document batch.
 */
export function createPrioritisedEmbedder(embedders: {
  queries: WorkerEmbedder;
  documents: WorkerEmbedder;
}): WorkerEmbedder {
  const { queries, documents } = embedders;
  return {
    model: documents.model,
    fusion: documents.fusion,
    embed: (texts, purpose) => (purpose === 'query' ? queries : documents).embed(texts, purpose),
    async close() {
      await Promise.all([queries.close(), documents.close()]);
    },
  };
}
