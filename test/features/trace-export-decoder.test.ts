import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { createExportDecoder } from '../../src/features/observability/traces/export-decoder.js';
import { bulkWorkNice } from '../../src/platform/thread-priority.js';

// OTLP export bodies decoded on the request thread (small ones) and on the export decoder's thread
// (large ones) give the same spans and the same refusals; the decoder's thread runs at bulk priority.

const require = createRequire(import.meta.url);
const messages = require('@opentelemetry/otlp-transformer/build/src/generated/root.js').opentelemetry.proto
  .collector.trace.v1;
const Long = require('protobufjs/minimal').util.Long;

const onThisThread = createExportDecoder({ offThreadBytes: Number.POSITIVE_INFINITY });
const onTheWorker = createExportDecoder({ offThreadBytes: 0 });
afterAll(async () => {
  await onThisThread.close();
  await onTheWorker.close();
});

async function bothWays(body: Buffer, protobuf: boolean) {
  // The worker may take the buffer over: each decoder gets its own copy.
  const [here, there] = await Promise.all([
    onThisThread.decode(Buffer.from(body), protobuf),
    onTheWorker.decode(Buffer.from(body), protobuf),
  ]);
  expect(there).toEqual(here);
  return here;
}

function spans(count: number) {
  const start = BigInt(Date.now()) * 1_000_000n;
  return Array.from({ length: count }, (_, index) => ({
    traceId: randomBytes(16),
    spanId: randomBytes(8),
    name: `step ${index}`,
    kind: 1,
    startTimeUnixNano: Long.fromString(start.toString(), true),
    endTimeUnixNano: Long.fromString((start + 1_000_000n).toString(), true),
    attributes: [
      { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o-mini' } },
      { key: 'gen_ai.usage.input_tokens', value: { intValue: 12 } },
    ],
  }));
}

const request = (list: unknown[]) => ({
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'shop' } }] },
      scopeSpans: [{ scope: { name: 'tests' }, spans: list }],
    },
  ],
});

describe('the OTLP export decoder', () => {
  it('decodes protobuf and JSON alike on either thread, and refuses malformed bodies alike', async () => {
    const protobuf = Buffer.from(messages.ExportTraceServiceRequest.encode(request(spans(300))).finish());
    const decoded = await bothWays(protobuf, true);
    expect('batch' in decoded && decoded.batch.spans).toHaveLength(300);
    expect('batch' in decoded && decoded.batch.spans[0]).toMatchObject({
      name: 'step 0',
      serviceName: 'shop',
      attributes: { 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.usage.input_tokens': 12 },
    });

    const hex = (bytes: number) => randomBytes(bytes).toString('hex');
    const json = Buffer.from(
      JSON.stringify(
        request([
          { traceId: hex(16), spanId: hex(8), name: 'kept', startTimeUnixNano: '1', endTimeUnixNano: '2' },
          { traceId: '0'.repeat(32), spanId: hex(8), name: 'refused', startTimeUnixNano: '1' },
        ]),
      ),
    );
    const fromJson = await bothWays(json, false);
    expect(fromJson).toMatchObject({ batch: { rejected: 1, spans: [{ name: 'kept' }] } });

    const deep = `{"resourceSpans":${'[{"a":'.repeat(10_000)}1${'}]'.repeat(10_000)}}`;
    for (const [body, isProtobuf, code] of [
      [Buffer.from([0x0a, 0xff, 0xff]), true, 'invalid_protobuf'],
      [Buffer.from('{"resourceSpans":'), false, 'invalid_json'],
      [Buffer.from(deep), false, 'invalid_json'],
      [Buffer.from('{"resourceSpans":{}}'), false, 'invalid_resource_spans'],
    ] as const) {
      expect(await bothWays(body, isProtobuf)).toMatchObject({ refusal: { code } });
    }
  });

  it.runIf(process.platform === 'linux')('decodes on a thread below the normal priority', async () => {
    const decoder = createExportDecoder({ offThreadBytes: 0 });
    const before = new Set(readdirSync('/proc/self/task'));
    try {
      await decoder.decode(
        Buffer.from(messages.ExportTraceServiceRequest.encode(request(spans(1))).finish()),
        true,
      );
      const niceOf = (thread: string) => {
        const stat = readFileSync(`/proc/self/task/${thread}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      };
      const started = readdirSync('/proc/self/task').filter((thread) => !before.has(thread));
      expect(started.filter((thread) => niceOf(thread) === bulkWorkNice).length).toBeGreaterThan(0);
      expect(niceOf(String(process.pid))).toBe(0);
    } finally {
      await decoder.close();
    }
  });
});
