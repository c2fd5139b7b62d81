import { lazyModuleWorker } from '../module-worker.js';
import type { Unnumbered } from '../worker-calls.js';
import { type Base64Decoding, decodeBase64 } from './base64.js';
import { parseJsonText } from './json-text.js';
import type { PayloadAnswer, PayloadRequest } from './protocol.js';

/**
 * Decodes request payloads: JSON bodies and Base64 file contents. A small one is decoded here, where
 * a message to another thread would cost more than the work; one of `offThreadBytes` or more goes to
 * a worker thread, so the request thread keeps answering (`bench/liveness.ts`: four 16 MiB uploads
 * held it ~85 ms each, mostly UTF-8 decoding, JSON.parse and Base64 decoding).
 */
export type PayloadDecoder = {
  /** The JSON value of a body; throws JSON.parse's (or the prototype check's) error. */
  parseJson(body: Buffer): Promise<unknown>;
  decodeBase64(text: string, maximumBytes: number): Promise<Base64Decoding>;
  close(): Promise<void>;
};

export function createPayloadDecoder({ offThreadBytes = 1024 * 1024 } = {}): PayloadDecoder {
  /** Started on the first large payload; started again after it fails. */
  const worker = lazyModuleWorker<PayloadRequest, PayloadAnswer>(
    'platform/payloads/payload-worker',
    'payload worker',
  );
  const call = (request: Unnumbered<PayloadRequest>, transfer?: ArrayBuffer[]) =>
    worker.call(request, transfer);

  return {
    async parseJson(body) {
      if (body.length < offThreadBytes) return parseJsonText(body.toString('utf8'));
      // A body that alone fills its memory (Fastify's concatenation of the chunks) is handed over, not copied.
      const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
      const answer = await call({ kind: 'json', bytes: body }, owned ? [body.buffer as ArrayBuffer] : []);
      if ('error' in answer) throw new SyntaxError(answer.error);
      return (answer as { value: unknown }).value;
    },
    async decodeBase64(text, maximumBytes) {
      if (text.length < offThreadBytes) return decodeBase64(text, maximumBytes);
      const { decoding } = (await call({ kind: 'base64', text, maximumBytes })) as {
        decoding: Base64Decoding;
      };
      if (!('bytes' in decoding)) return decoding;
      // It crossed as a Uint8Array: the service works with Buffers.
      const { buffer, byteOffset, byteLength } = decoding.bytes;
      return { bytes: Buffer.from(buffer, byteOffset, byteLength) };
    },
    close: () => worker.close(),
  };
}
