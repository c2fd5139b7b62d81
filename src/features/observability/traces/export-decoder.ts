import { lazyModuleWorker } from '../../../platform/module-worker.js';
import { type DecodedExport, decodeExport } from './export-decoding.js';

export type DecoderRequest = { id: number; bytes: Uint8Array; protobuf: boolean };
export type DecoderAnswer = { id: number; decoded: DecodedExport } | { id: number; error: string };

/**
 * Decodes OTLP export bodies. A small one is decoded on the request thread, where a message to
 * another thread would cost more than the work; one of `offThreadBytes` or more on a worker thread
 * of its own at bulk priority. A 512-span export is ~0.3 MB and ~15 ms of decoding and flattening
 * (bench/traces.ts): on the request thread, beside CPU burners, that is what another workspace's
 * runs waited behind.
 */
export type ExportDecoder = {
  decode(bytes: Buffer, protobuf: boolean): Promise<DecodedExport>;
  close(): Promise<void>;
};

export function createExportDecoder({ offThreadBytes = 32 * 1024 } = {}): ExportDecoder {
  /** Started with the first large export; started again after it fails. */
  const worker = lazyModuleWorker<DecoderRequest, DecoderAnswer>(
    'features/observability/traces/export-decoder-worker',
    'export decoder',
  );

  return {
    async decode(bytes, protobuf) {
      if (bytes.length < offThreadBytes) return decodeExport(bytes, protobuf);
      // A body that alone fills its memory (the request's concatenated chunks) is handed over, not copied.
      const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const answer = await worker.call({ bytes, protobuf }, owned ? [bytes.buffer as ArrayBuffer] : []);
      if ('error' in answer) throw new Error(`the export decoder failed: ${answer.error}`);
      return answer.decoded;
    },
    close: () => worker.close(),
  };
}
