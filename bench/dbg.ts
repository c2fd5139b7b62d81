import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const m = require('@opentelemetry/otlp-transformer/build/src/generated/root.js').opentelemetry.proto.collector
  .trace.v1;
const Long = require('protobufjs/minimal').util.Long;
const u = (v: bigint) => Long.fromString(v.toString(), true);
function body(startMs: number) {
  const spans = [];
  for (let t = 0; t < 64; t++) {
    const traceId = randomBytes(16);
    const root = randomBytes(8);
    const start = BigInt(startMs + t) * 1000000n;
    for (let i = 0; i < 8; i++)
      spans.push({
        traceId,
        spanId: i === 0 ? root : randomBytes(8),
        parentSpanId: i === 0 ? undefined : root,
        name: i === 1 ? 'chat' : 'step',
        kind: 1,
        startTimeUnixNano: u(start + BigInt(i) * 1000000n),
        endTimeUnixNano: u(start + BigInt(i + 1) * 1000000n),
        attributes:
          i === 1
            ? [
                { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
                { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o-mini' } },
                { key: 'gen_ai.usage.input_tokens', value: { intValue: 400 } },
              ]
            : [{ key: 'http.route', value: { stringValue: '/x' } }],
      });
  }
  return m.ExportTraceServiceRequest.encode({ resourceSpans: [{ scopeSpans: [{ spans }] }] }).finish();
}
const n = Number(process.argv[2] ?? 100);
const bodies = Array.from({ length: n }, (_, i) => body(Date.now() - 60000 + i * 64));
const started = performance.now();
await Promise.all(
  [0, 1, 2, 3].map(async (w) => {
    for (let i = w; i < bodies.length; i += 4) {
      const r = await fetch('http://127.0.0.1:4417/v1/otel/v1/traces', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-protobuf',
          authorization: 'Bearer lec_bench_key_0123456789abcdefghijklmnopqrstuv',
        },
        body: bodies[i],
      });
      const a = new Uint8Array(await r.arrayBuffer());
      if (r.status !== 200 || a.length) console.log(r.status, a.length, Buffer.from(a).toString());
    }
  }),
);
console.log('spans/s', Math.round((n * 512) / ((performance.now() - started) / 1000)));
