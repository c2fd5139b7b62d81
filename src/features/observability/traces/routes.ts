import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listEnvelope } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { AppError, ValidationError } from '../../../errors.js';
import { workspaceOf } from '../../../http/authentication.js';
import type { ExportDecoder } from './export-decoder.js';
import { traceServiceMessages } from './otlp-messages.js';
import { presentTrace, presentTraceWithSpans } from './presenters.js';
import type { ReceivedBatch } from './received-spans.js';
import { exportAnswer, traceResponse, traceWithSpansResponse } from './responses.js';
import { traceIdParams, traceListQuery } from './schemas.js';
import type { TraceService } from './service.js';

const gunzipped = promisify(gunzip);

/** The most an export request may be, as sent and once unzipped (413 past either). */
export const otlpLimits = { bodyBytes: 32 * 1024 * 1024, unzippedBytes: 64 * 1024 * 1024 };

const protobufType = 'application/x-protobuf';

function isProtobuf(request: FastifyRequest): boolean {
  return (
    String(request.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase() === protobufType
  );
}

async function bodyBytes(request: FastifyRequest): Promise<Buffer> {
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
async function decoded(
  request: FastifyRequest,
  bytes: Buffer,
  decoder: ExportDecoder,
): Promise<ReceivedBatch> {
  const answer = await decoder.decode(bytes, isProtobuf(request));
  if ('batch' in answer) return answer.batch;
  const { code, message } = answer.refusal;
  if (code === 'invalid_resource_spans') throw new ValidationError('resourceSpans', message);
  throw new AppError(400, code, message);
}

/** The OTLP/HTTP traces receiver: protobuf or JSON, gzip or not, answered in the request's own encoding. */
function otlpReceiver(traces: TraceService, decoder: ExportDecoder): FastifyPluginAsyncZod {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      [protobufType, 'application/json'],
      { parseAs: 'buffer', bodyLimit: otlpLimits.bodyBytes },
      (_request, body, done) => done(null, body),
    );
    app.post(
      '/otel/v1/traces',
      {
        bodyLimit: otlpLimits.bodyBytes,
        schema: {
          'x-right': 'run',
          tags: ['traces'],
          description:
            'OTLP/HTTP traces receiver: an `ExportTraceServiceRequest` as protobuf (`application/x-protobuf`) or JSON, optionally gzip; answered in the same encoding',
          response: { 200: exportAnswer },
        },
      },
      async (request, reply) => {
        const batch = await decoded(request, await bodyBytes(request), decoder);
        const answer = await traces.ingest(workspaceOf(request).id, batch);
        const partialSuccess =
          answer.rejected > 0 || answer.message !== ''
            ? { rejectedSpans: answer.rejected, errorMessage: answer.message }
            : undefined;
        if (isProtobuf(request)) {
          const { ExportTraceServiceResponse } = traceServiceMessages();
          const bytes = ExportTraceServiceResponse.encode(partialSuccess ? { partialSuccess } : {}).finish();
          reply.type(protobufType).send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
          return reply;
        }
        return partialSuccess ? { partialSuccess } : {};
      },
    );
  };
}

export function traceRoutes(traces: TraceService, decoder: ExportDecoder): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['traces'];
    await app.register(otlpReceiver(traces, decoder));

    app.get(
      '/traces',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: traceListQuery,
          response: { 200: listResponse(traceResponse) },
        },
      },
      async (request) => {
        const { since, until, name, session, status, min_duration_ms } = request.query;
        const { rows, total } = await traces.list(
          workspaceOf(request).id,
          {
            since: since === undefined ? undefined : BigInt(Date.parse(since)) * 1_000_000n,
            until: until === undefined ? undefined : BigInt(Date.parse(until)) * 1_000_000n,
            name,
            session,
            status,
            minimumDurationNanos:
              min_duration_ms === undefined ? undefined : BigInt(Math.round(min_duration_ms * 1_000_000)),
          },
          request.query,
        );
        return listEnvelope(rows.map(presentTrace), total, request.query);
      },
    );

    app.get(
      '/traces/:trace_id',
      {
        schema: {
          'x-right': 'read_runs',
          tags,
          params: traceIdParams,
          response: { 200: traceWithSpansResponse },
        },
      },
      async (request) =>
        presentTraceWithSpans(await traces.get(workspaceOf(request).id, request.params.trace_id)),
    );
  };
}
