import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { keyedCaller, serve } from '../helpers/lectern-process.js';
import { useProcessEnvironment } from '../helpers/test-app.js';

// A 200 from the OTLP receiver means stored (docs/traces.md): exporters send batches while the
// service is killed with SIGKILL; started again, it holds every span of every acknowledged batch,
// each trace's totals agree with its spans, and a batch cut off mid-way was stored whole or not at all.
const apiKey = 'lec_trace_crash_key_0123456789abcdefghijkl';
const processEnvironment = useProcessEnvironment({ LECTERN_INIT_API_KEY: apiKey });
const call = keyedCaller(apiKey);

/** A batch of one trace: a root and `children` spans under it, the second a model call. */
function batch(children: number) {
  const traceId = randomBytes(16).toString('hex');
  const root = randomBytes(8).toString('hex');
  const start = BigInt(Date.now()) * 1_000_000n;
  const span = (spanId: string, parentSpanId: string | undefined, index: number) => ({
    traceId,
    spanId,
    ...(parentSpanId && { parentSpanId }),
    name: index === 1 ? 'chat gpt-4o-mini' : `step ${index}`,
    startTimeUnixNano: String(start + BigInt(index) * 1_000_000n),
    endTimeUnixNano: String(start + BigInt(index + 1) * 1_000_000n),
    attributes:
      index === 1
        ? [
            { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
            { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o-mini' } },
            { key: 'gen_ai.usage.input_tokens', value: { intValue: '10' } },
          ]
        : [{ key: 'payload', value: { stringValue: 'x'.repeat(2_000) } }],
  });
  const spans = [
    span(root, undefined, 0),
    ...Array.from({ length: children }, (_, index) => span(randomBytes(8).toString('hex'), root, index + 1)),
  ];
  return { traceId, size: spans.length, body: { resourceSpans: [{ scopeSpans: [{ spans }] }] } };
}

it('keeps every acknowledged batch across a kill -9 during ingestion, each whole', async () => {
  const first = await serve(processEnvironment.values);
  const acknowledged: { traceId: string; size: number }[] = [];
  const sent: { traceId: string; size: number }[] = [];
  let killed = false;
  // Four exporters send until the service dies under them.
  const exporter = async () => {
    while (!killed) {
      const next = batch(199);
      sent.push(next);
      const answer = await call(first.baseUrl, 'POST', '/v1/otel/v1/traces', next.body).catch(
        () => undefined,
      );
      if (answer?.status === 200) acknowledged.push(next);
    }
  };
  const exporters = Array.from({ length: 4 }, exporter);
  while (acknowledged.length < 20) await new Promise((resolve) => setImmediate(resolve));
  killed = true;
  await first.kill();
  await Promise.all(exporters);

  const second = await serve(processEnvironment.values);
  try {
    for (const { traceId, size } of acknowledged) {
      const trace = await call(second.baseUrl, 'GET', `/v1/traces/${traceId}`);
      expect(trace.status).toBe(200);
      expect(trace.body.span_count).toBe(size);
      expect(trace.body.spans).toHaveLength(size);
      expect(trace.body.spans.filter((span: { data_guid: string | null }) => span.data_guid)).toHaveLength(1);
    }
    // A batch in flight at the kill is there whole, or not at all.
    for (const { traceId, size } of sent.filter((each) => !acknowledged.includes(each))) {
      const trace = await call(second.baseUrl, 'GET', `/v1/traces/${traceId}`);
      if (trace.status === 200) expect(trace.body.spans).toHaveLength(size);
      else expect(trace.status).toBe(404);
    }
  } finally {
    await second.stop();
    await first.stop();
  }
}, 120_000);
