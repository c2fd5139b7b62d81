import { parentPort } from 'node:worker_threads';
import type { SplitterConfig } from '../core/json-columns.js';
import { storableText } from '../platform/storable-text.js';
import { lowerThisThreadPriority } from '../platform/thread-priority.js';
import { extractText, UnsupportedFileError } from './loaders/extract-text.js';
import type { FileType } from './loaders/file-types.js';
import { createSplitter } from './splitters.js';

// The CPU-heavy half of indexing a file — extracting its text and splitting it — runs here, in a
// worker thread, so a large file cannot stall the requests of the process that indexes it. It is
// bulk work: the thread runs below the request and database threads.
lowerThisThreadPriority();

export type IndexingRequest = {
  id: number;
  bytes: Uint8Array;
  type: FileType;
  splitterConfig: SplitterConfig;
  /** Extracted characters at most; a larger text fails the source instead of filling the database. */
  maximumTextLength: number;
};

export type SplitPiece = { content: string; page?: number };

export type IndexingAnswer =
  | { id: number; documents: number; chunks: SplitPiece[] }
  | { id: number; failure: 'unsupported' | 'too_large' | 'failed'; message: string };

async function index(request: IndexingRequest): Promise<IndexingAnswer> {
  const texts = await extractText(Buffer.from(request.bytes), request.type);
  const length = texts.reduce((total, loaded) => total + loaded.text.length, 0);
  if (length > request.maximumTextLength) {
    return {
      id: request.id,
      failure: 'too_large',
      message: `the file holds ${length} characters of text; at most ${request.maximumTextLength} are indexed per source`,
    };
  }
  const split = createSplitter(request.splitterConfig);
  const chunks: SplitPiece[] = [];
  for (const loaded of texts) {
    // PDFs in particular carry NUL, which PostgreSQL cannot store.
    for (const content of await split(storableText(loaded.text))) {
      chunks.push(loaded.page === undefined ? { content } : { content, page: loaded.page });
    }
  }
  return { id: request.id, documents: texts.length, chunks };
}

parentPort?.on('message', (request: IndexingRequest) => {
  index(request).then(
    (answer) => parentPort!.postMessage(answer),
    (error: unknown) =>
      parentPort!.postMessage({
        id: request.id,
        failure: error instanceof UnsupportedFileError ? 'unsupported' : 'failed',
        message: error instanceof Error ? error.message : String(error),
      } satisfies IndexingAnswer),
  );
});
