import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { keyedCaller, serve } from '../helpers/lectern-process.js';
import { useProcessEnvironment } from '../helpers/test-app.js';

// A 200 from the OTLP receiver means stored (docs/traces.md): exporters send batches while the
// service is killed with SIGKILL; started again, it holds every span of every acknowledged batch,
// each trace's totals agree with its spans, and a batch cut off mid-way holds whole slices, which its
// retry completes.
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
  const acknowledged: ReturnType<typeof batch>[] = [];
  const sent: ReturnType<typeof batch>[] = [];
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
    // A batch in flight at the kill is stored a slice at a time, each slice whole and counted: its
    // trace's totals agree with the spans it holds. The exporter's retry stores the rest, each span once.
    for (const { traceId, size, body } of sent.filter((each) => !acknowledged.includes(each))) {
      const cut = await call(second.baseUrl, 'GET', `/v1/traces/${traceId}`);
      if (cut.status === 200) expect(cut.body.span_count).toBe(cut.body.spans.length);
      else expect(cut.status).toBe(404);
      expect((await call(second.baseUrl, 'POST', '/v1/otel/v1/traces', body)).status).toBe(200);
      const whole = await call(second.baseUrl, 'GET', `/v1/traces/${traceId}`);
      expect(whole.body.span_count).toBe(size);
      expect(whole.body.spans).toHaveLength(size);
      expect(whole.body.spans.filter((span: { data_guid: string | null }) => span.data_guid)).toHaveLength(1);
      expect(whole.body.input_tokens).toBe(10);
    }
  } finally {
    await second.stop();
    await first.stop();
  }
}, 120_000);
