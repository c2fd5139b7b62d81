import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

export type CollectedSpan = {
  name: string;
  traceId: string;
  spanId: string;
  attributes: Record<string, unknown>;
};

export type Collector = { url: string; spans: CollectedSpan[]; close(): Promise<void> };

/** An OTLP/HTTP collector on a local port: decodes each protobuf export with the generated messages. */
export async function startCollector(): Promise<Collector> {
  const require = createRequire(import.meta.url);
  const root = require('@opentelemetry/otlp-transformer/build/src/generated/root.js');
  const request = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
  const spans: CollectedSpan[] = [];
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const decoded = request.toObject(request.decode(Buffer.concat(chunks)), { bytes: String });
      for (const resource of decoded.resourceSpans ?? [])
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              name: span.name,
              traceId: Buffer.from(span.traceId, 'base64').toString('hex'),
              spanId: Buffer.from(span.spanId, 'base64').toString('hex'),
              attributes: Object.fromEntries(
                (span.attributes ?? []).map((entry: { key: string; value: Record<string, unknown> }) => [
                  entry.key,
                  Object.values(entry.value)[0],
                ]),
              ),
            });
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
