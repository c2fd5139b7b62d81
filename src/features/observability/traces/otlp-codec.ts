import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { AppError, ValidationError } from '../../../errors.js';
import type { ExportDecoder } from './export-decoder.js';
import { traceServiceMessages } from './otlp-messages.js';
import type { ReceivedBatch } from './received-spans.js';

// OTLP/HTTP's encodings, as the receiver route reads and answers them: protobuf or JSON, gzip or
// not. The route registers the parser and delegates; what a body means is decided here.

/** What the codec reads of an export request: its raw body and its headers. */
export type ExportRequest = { body: unknown; headers: Record<string, string | string[] | undefined> };

const gunzipped = promisify(gunzip);

/** The most an export request may be, as sent and once unzipped (413 past either). */
export const otlpLimits = { bodyBytes: 32 * 1024 * 1024, unzippedBytes: 64 * 1024 * 1024 };

export const protobufType = 'application/x-protobuf';

/** Whether an export is protobuf (else JSON), by its Content-Type: its answer is in the same encoding. */
export function isProtobuf(request: ExportRequest): boolean {
  return (
    String(request.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase() === protobufType
  );
}

async function bodyBytes(request: ExportRequest): Promise<Buffer> {
  const body = request.body as Buffer | undefined;
  if (!body || body.length === 0) return Buffer.alloc(0);
  const encoding = String(request.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity') return body;
  if (encoding !== 'gzip')
    throw new AppError(
      415,
      'unsupported_encoding',
      `Content-Encoding "${encoding}" is not supported: send gzip or none`,
    );
  try {
    return await gunzipped(body, { maxOutputLength: otlpLimits.unzippedBytes });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new AppError(
        413,
        'payload_too_large',
        `The unzipped body is over ${otlpLimits.unzippedBytes} bytes`,
      );
    throw new AppError(400, 'invalid_gzip', 'The body is not valid gzip');
  }
}

/**
 * The export's spans in either encoding. A large body is decoded on the export decoder's thread, at
 * bulk priority (export-decoder.ts), so one tenant's exports never hold the request thread that
 * others' requests wait on.
 */
export async function exportedBatch(request: ExportRequest, decoder: ExportDecoder): Promise<ReceivedBatch> {
  const answer = await decoder.decode(await bodyBytes(request), isProtobuf(request));
  if ('batch' in answer) return answer.batch;
  const { code, message } = answer.refusal;
  if (code === 'invalid_resource_spans') throw new ValidationError('resourceSpans', message);
  throw new AppError(400, code, message);
}

/** The export's answer, `partialSuccess` when spans were refused, in the request's encoding. */
export function exportAnswerOf(
  request: ExportRequest,
  answer: { rejected: number; message: string },
): { protobuf: Buffer } | { json: object } {
  const partialSuccess =
    answer.rejected > 0 || answer.message !== ''
      ? { rejectedSpans: answer.rejected, errorMessage: answer.message }
      : undefined;
  if (!isProtobuf(request)) return { json: partialSuccess ? { partialSuccess } : {} };
  const { ExportTraceServiceResponse } = traceServiceMessages();
  const bytes = ExportTraceServiceResponse.encode(partialSuccess ? { partialSuccess } : {}).finish();
  return { protobuf: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}
