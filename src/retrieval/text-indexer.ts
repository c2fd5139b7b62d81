import type { Worker } from 'node:worker_threads';
import type { SplitterConfig } from '../core/json-columns.js';
import { PermanentError } from '../errors.js';
import { startModuleWorker } from '../platform/module-worker.js';
import type { IndexingAnswer, IndexingRequest, SplitPiece } from './indexing-worker.js';
import type { FileType } from './loaders/file-types.js';
import { UnsupportedFileError } from './loaders/unsupported-file-error.js';
import { createSplitter } from './splitters.js';

/** Characters split on the calling thread: below this, handing the text to the worker costs more. */
const inlineSplitLength = 32_768;
const plainText: FileType = { mimeType: 'text/plain', extension: 'txt' };

/** A source's text or time is over its budget: no attempt will do better, so the source fails. */
export class IndexingBudgetError extends PermanentError {}

export type TextIndexerOptions = {
  /** How long extracting and splitting one file may take before the worker is stopped. */
  timeLimitMs: number;
  /** Extracted characters one source may have. */
  maximumTextLength: number;
};

export type SplitFile = { documents: number; chunks: SplitPiece[] };

export type TextIndexer = {
  extractAndSplit(bytes: Uint8Array, type: FileType, splitterConfig: SplitterConfig): Promise<SplitFile>;
  /** Chunks of a text: a short one split at once, a long one in the worker. */
  split(text: string, splitterConfig: SplitterConfig): Promise<string[]>;
  close(): Promise<void>;
};

type Waiting = {
  request: Omit<IndexingRequest, 'id'>;
  resolve: (split: SplitFile) => void;
  reject: (error: Error) => void;
};

/**
 * Runs extraction and splitting in one worker thread, one file at a time, so indexing never takes
 * more than one core from the requests. A file over its time budget has its worker terminated (the
 * only way to stop a busy thread) and fails; the next file gets a new worker.
 */
export function createTextIndexer(options: TextIndexerOptions): TextIndexer {
  let worker: Worker | undefined;
  let nextId = 0;
  let current: (Waiting & { id: number; timer: NodeJS.Timeout }) | undefined;
  const waiting: Waiting[] = [];

  function start(): Worker {
    const started = startModuleWorker('retrieval/indexing-worker');
    started.unref();
    started.on('message', (answer: IndexingAnswer) => settle(answer));
    started.on('error', (error) => stopped(started, error));
    started.on('exit', () => stopped(started, new Error('the indexing worker stopped')));
    return started;
  }

  function stopped(which: Worker, error: Error) {
    if (worker !== which) return;
    worker = undefined;
    finishCurrent()?.reject(error);
  }

  function finishCurrent() {
    const finished = current;
    current = undefined;
    if (finished) clearTimeout(finished.timer);
    queueMicrotask(dispatch);
    return finished;
  }

  function settle(answer: IndexingAnswer) {
    if (current?.id !== answer.id) return;
    const finished = finishCurrent()!;
    if ('chunks' in answer) return finished.resolve({ documents: answer.documents, chunks: answer.chunks });
    if (answer.failure === 'unsupported') return finished.reject(new UnsupportedFileError(answer.message));
    if (answer.failure === 'too_large') return finished.reject(new IndexingBudgetError(answer.message));
    finished.reject(new Error(answer.message));
  }

  function dispatch() {
    if (current) return;
    const next = waiting.shift();
    if (!next) {
      worker?.unref();
      return;
    }
    worker ??= start();
    worker.ref();
    const id = nextId++;
    const timer = setTimeout(() => {
      const busy = worker;
      worker = undefined;
      finishCurrent()?.reject(
        new IndexingBudgetError(
          `extracting and splitting the file took longer than ${options.timeLimitMs / 1000} s; split it into smaller files`,
        ),
      );
      void busy?.terminate();
    }, options.timeLimitMs);
    current = { ...next, id, timer };
    worker.postMessage({ ...next.request, id } satisfies IndexingRequest);
  }

  const indexer: TextIndexer = {
    async split(text, splitterConfig) {
      if (text.length <= inlineSplitLength) return createSplitter(splitterConfig)(text);
      const split = await indexer.extractAndSplit(Buffer.from(text), plainText, splitterConfig);
      return split.chunks.map((chunk) => chunk.content);
    },

    extractAndSplit(bytes, type, splitterConfig) {
      return new Promise((resolve, reject) => {
        waiting.push({
          request: { bytes, type, splitterConfig, maximumTextLength: options.maximumTextLength },
          resolve,
          reject,
        });
        dispatch();
      });
    },
    async close() {
      const running = worker;
      worker = undefined;
      const closing = new Error('the service is stopping');
      for (const pending of waiting.splice(0)) pending.reject(closing);
      finishCurrent()?.reject(closing);
      if (running) await running.terminate();
    },
  };
  return indexer;
}
