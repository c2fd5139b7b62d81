import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listEnvelope } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { workspaceOf } from '../../../http/authentication.js';
import type { ExportDecoder } from './export-decoder.js';
import { exportAnswerOf, exportedBatch, otlpLimits, protobufType } from './otlp-codec.js';
import { presentTrace, presentTraceWithSpans } from './presenters.js';
import { exportAnswer, traceResponse, traceWithSpansResponse } from './responses.js';
import { traceIdParams, traceListQuery } from './schemas.js';
import type { TraceService } from './service.js';

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
        const batch = await exportedBatch(request, decoder);
        const answer = exportAnswerOf(request, await traces.ingest(workspaceOf(request).id, batch));
        if ('json' in answer) return answer.json;
        reply.type(protobufType).send(answer.protobuf);
        return reply;
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
