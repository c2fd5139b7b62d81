import { parentPort } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../../../platform/thread-priority.js';
import type { DecoderAnswer, DecoderRequest } from './export-decoder.js';
import { decodeExport } from './export-decoding.js';

/**
 * The export decoder's thread: decodes OTLP export bodies and flattens their spans. Ingesting spans
 * is bulk work, so the thread runs below the request thread and the database's (thread-priority.ts):
 * on a busy machine another workspace's requests get the cores first.
 */
const port = parentPort!;
lowerThisThreadPriority();

port.on('message', (request: DecoderRequest) => {
  let answer: DecoderAnswer;
  try {
    answer = { id: request.id, decoded: decodeExport(request.bytes, request.protobuf) };
  } catch (error) {
    answer = { id: request.id, error: (error as Error).message };
  }
  port.postMessage(answer);
});
