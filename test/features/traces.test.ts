import { gzipSync } from 'node:zlib';
import {
  type Attributes,
  context as contextApi,
  SpanKind,
  SpanStatusCode,
  trace as traceApi,
} from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import {
  type Client,
  clientFor,
  createAction,
  listen,
  newWorkspace,
  useTestWorkspace,
} from '../helpers/test-app.js';

// Traces over OpenTelemetry (docs/traces.md): the OTLP/HTTP receiver, stored traces and spans, and
// model-call spans stored as generations. Spans are sent by the OpenTelemetry SDK's own exporters.

const context = useTestWorkspace();

/** A tracer whose spans go to Lectern through the SDK's exporter, as an application's would. */
function tracerFor(exporter: SpanExporter, serviceName = 'checkout') {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  return { tracer: provider.getTracer('traces-test'), flush: () => provider.forceFlush(), provider };
}

let listening: string | undefined;
async function address(): Promise<string> {
  listening ??= await listen(context.test);
  return listening;
}

async function exporter(client: Client, kind: 'protobuf' | 'json', compression?: 'gzip') {
  const options = {
    url: `${await address()}/v1/otel/v1/traces`,
    headers: { Authorization: `Bearer ${client.apiKey}` },
    ...(compression && { compression: compression as never }),
  };
  return kind === 'protobuf' ? new ProtobufExporter(options) : new JsonExporter(options);
}

type Span = ReturnType<ReturnType<typeof tracerFor>['tracer']['startSpan']>;

/** The context of a child of `span`: what an instrumentation's active context carries. */
const under = (span: Span) => traceApi.setSpan(contextApi.active(), span);

const hex = (length: number) =>
  Array.from({ length }, () => Math.floor(Math.random() * 16).toString(16))
    .join('')
    .replace(/^0/, '1');

/** An OTLP/JSON span with the given fields over sane defaults. */
function jsonSpan(fields: Record<string, unknown> = {}) {
  const start = BigInt(Date.now()) * 1_000_000n;
  return {
    traceId: hex(32),
    spanId: hex(16),
    name: 'work',
    kind: 1,
    startTimeUnixNano: start.toString(),
    endTimeUnixNano: (start + 5_000_000n).toString(),
    attributes: [],
    ...fields,
  };
}

function jsonRequest(spans: unknown[], serviceName = 'raw') {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: serviceName } }] },
        scopeSpans: [{ scope: { name: 'raw' }, spans }],
      },
    ],
  };
}

const attribute = (key: string, value: unknown) => ({
  key,
  value:
    typeof value === 'number'
      ? Number.isInteger(value)
        ? { intValue: String(value) }
        : { doubleValue: value }
      : { stringValue: String(value) },
});

async function post(client: Client, body: unknown) {
  return client.request('POST', '/v1/otel/v1/traces', body);
}

describe('traces over OpenTelemetry', () => {
  it('stores what the SDK exports over protobuf, gzip and JSON, one trace per trace id, parents before children', async () => {
    const { client } = context;
    for (const [kind, compression] of [
      ['protobuf', undefined],
      ['protobuf', 'gzip'],
      ['json', undefined],
    ] as const) {
      const { tracer, flush, provider } = tracerFor(await exporter(client, kind, compression));
      // Times a few milliseconds apart, as real work has: siblings are ordered by their start.
      const at = (offsetMs: number) => started + offsetMs;
      const started = Date.now();
      const root = tracer.startSpan(`checkout ${kind} ${compression ?? ''}`, {
        kind: SpanKind.SERVER,
        startTime: at(0),
      });
      const traceId = root.spanContext().traceId;
      const lookup = tracer.startSpan(
        'lookup',
        { attributes: { 'db.system': 'postgresql', rows: 3 }, startTime: at(1) },
        under(root),
      );
      lookup.addEvent('cache miss', { key: 'cart:1' });
      const inner = tracer.startSpan('query', { kind: SpanKind.CLIENT, startTime: at(2) }, under(lookup));
      inner.setStatus({ code: SpanStatusCode.ERROR, message: 'timeout' });
      inner.end(at(5));
      lookup.end(at(6));
      tracer.startSpan('render', { startTime: at(7) }, under(root)).end(at(9));
      root.setStatus({ code: SpanStatusCode.OK });
      root.end(at(10));
      await flush();
      await provider.shutdown();

      const got = await client.get(`/v1/traces/${traceId}`);
      expect(got.status, JSON.stringify(got.body)).toBe(200);
      expect(got.body).toMatchObject({
        trace_id: traceId,
        name: `checkout ${kind} ${compression ?? ''}`,
        service_name: 'checkout',
        span_count: 4,
        // A failed child makes the trace ERROR whatever its root says.
        status: 'ERROR',
        cost: 0,
      });
      expect(got.body.start_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
      const names = got.body.spans.map((span: { name: string }) => span.name);
      expect(names).toEqual([`checkout ${kind} ${compression ?? ''}`, 'lookup', 'query', 'render']);
      const [rootSpan, lookupSpan, query] = got.body.spans;
      expect(rootSpan).toMatchObject({ parent_span_id: null, kind: 'SERVER', status: 'OK', data_guid: null });
      expect(lookupSpan).toMatchObject({
        parent_span_id: rootSpan.span_id,
        kind: 'INTERNAL',
        attributes: { 'db.system': 'postgresql', rows: 3 },
        events: [{ name: 'cache miss', attributes: { key: 'cart:1' } }],
      });
      expect(query).toMatchObject({
        parent_span_id: lookupSpan.span_id,
        kind: 'CLIENT',
        status: 'ERROR',
        status_message: 'timeout',
      });
    }
    const listed = await client.get('/v1/traces?limit=3');
    expect(listed.body.total_count).toBe(3);
    expect(listed.body.data.map((trace: { name: string }) => trace.name)).toEqual([
      'checkout json ',
      'checkout protobuf gzip',
      'checkout protobuf ',
    ]);
  });

  it('refuses bad spans through partial success and stores the rest; a retried batch adds nothing', async () => {
    const client = await newWorkspace(context.test);
    const good = jsonSpan({ name: 'kept' });
    const zeroes = jsonSpan({ traceId: '0'.repeat(32) });
    const short = jsonSpan({ spanId: 'abc' });
    const backwards = jsonSpan({ endTimeUnixNano: '1' });
    const crowded = jsonSpan({
      attributes: Array.from({ length: 100_000 }, (_, index) => attribute(`key.${index}`, index)),
    });
    const huge = jsonSpan({ name: 'huge', attributes: [attribute('blob', 'x'.repeat(10 * 1024 * 1024))] });
    const body = jsonRequest([good, zeroes, short, backwards, crowded, huge]);
    const answer = await post(client, body);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
    expect(answer.body.partialSuccess.rejectedSpans).toBe(4);
    const message: string = answer.body.partialSuccess.errorMessage;
    expect(message).toContain('is not 16 non-zero bytes');
    expect(message).toContain('is not 8 non-zero bytes');
    expect(message).toContain('ends before it starts');
    expect(message).toContain('100000 attributes');
    expect(message).toContain(`span ${huge.spanId} taken with values cut`);

    const kept = await client.get(`/v1/traces/${good.traceId}`);
    expect(kept.body.spans).toHaveLength(1);
    const cut = await client.get(`/v1/traces/${huge.traceId}`);
    expect(cut.body.spans[0].attributes['lectern.truncated']).toBe(true);
    expect(cut.body.spans[0].attributes.blob.length).toBe(64 * 1024);
    for (const refused of [zeroes, backwards, crowded])
      expect((await client.get(`/v1/traces/${refused.traceId}`)).status).toBe(404);

    // An exporter retries a batch it got no answer for: nothing is counted twice.
    await post(client, jsonRequest([good]));
    expect((await client.get(`/v1/traces/${good.traceId}`)).body.span_count).toBe(1);

    expect((await client.request('POST', '/v1/otel/v1/traces', '{"resourceSpans": [')).status).toBe(400);
    const wrongShape = await post(client, { resourceSpans: 'none' });
    expect(wrongShape.status).toBe(400);
    expect(wrongShape.body.error.field).toBe('resourceSpans');
    const notProtobuf = await client.request('POST', '/v1/otel/v1/traces', 'not protobuf at all', {
      'content-type': 'application/x-protobuf',
    });
    expect(notProtobuf.status).toBe(400);
  });

  it('takes a span with impossible numbers, a NUL or deep nesting without sinking its siblings', async () => {
    const client = await newWorkspace(context.test);
    const call = (name: string, extra: unknown[]) =>
      jsonSpan({
        name,
        attributes: [
          attribute('gen_ai.operation.name', 'chat'),
          attribute('gen_ai.request.model', 'gpt-4o-mini'),
          ...extra,
        ],
      });
    const overflowing = call('overflowing', [attribute('gen_ai.usage.input_tokens', 2147483648)]);
    const farVersion = call('far version', [
      attribute('lectern.action', 'support-reply'),
      attribute('lectern.version', 99999999999),
    ]);
    const negative = call('negative', [
      attribute('gen_ai.usage.input_tokens', -5),
      attribute('gen_ai.usage.output_tokens', -7),
    ]);
    const withNul = call('with NUL', [
      attribute('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', content: 'a\u0000b' }])),
    ]);
    let nested: unknown = { stringValue: 'bottom' };
    // 500 key-value lists: 2,000 levels of JSON.
    for (let depth = 0; depth < 500; depth++)
      nested = { kvlistValue: { values: [{ key: 'k', value: nested }] } };
    const deep = jsonSpan({ name: 'deep', attributes: [{ key: 'deep', value: nested }] });
    const sibling = jsonSpan({ name: 'sibling' });
    const spans = [overflowing, farVersion, negative, withNul, deep, sibling];
    const answer = await post(client, jsonRequest(spans));
    expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
    for (const span of spans) {
      const stored = await client.get(`/v1/traces/${span.traceId}`);
      expect(stored.status, span.name).toBe(200);
    }
    const generations = (await client.get('/v1/data?source=otel')).body.data;
    expect(generations).toHaveLength(4);
    for (const generation of generations) {
      // A token count outside 0…2^31-1 is no count: never negative, never summed.
      for (const tokens of [generation.num_input_tokens, generation.num_output_tokens])
        if (tokens !== null) expect(tokens).toBeGreaterThanOrEqual(0);
      if (generation.cost) expect(generation.cost.generation).toBeGreaterThanOrEqual(0);
    }
    expect(generations.find((each: { output: string }) => each.output === 'ab')).toBeDefined();
    const negativeTrace = (await client.get(`/v1/traces/${negative.traceId}`)).body;
    expect(negativeTrace.input_tokens ?? 0).toBeGreaterThanOrEqual(0);
    // The deep attribute is cut where reading it would cost more than it tells.
    const deepTrace = (await client.get(`/v1/traces/${deep.traceId}`)).body;
    expect(deepTrace.spans[0].attributes['lectern.truncated']).toBe(true);
    expect(JSON.stringify(deepTrace.spans[0].attributes).length).toBeLessThan(2_000);

    // OTLP/JSON nested 10,000 deep is a malformed request, not a failure of the service.
    // Past 1 MB, so that it is decoded on the export decoder's thread, whose answer crosses to the request thread.
    const padding = 'x'.repeat(1024 * 1024);
    const tooDeep = `{"padding":"${padding}","resourceSpans":${'[{"a":'.repeat(10_000)}1${'}]'.repeat(10_000)}}`;
    const refused = await client.request('POST', '/v1/otel/v1/traces', tooDeep);
    expect(refused.status).toBe(400);
  });

  it('answers 413 for a body over the limit, sent or unzipped', async () => {
    const client = await newWorkspace(context.test);
    const response = await fetch(`${await address()}/v1/otel/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
      body: Buffer.alloc(33 * 1024 * 1024, 0x20),
    });
    expect(response.status).toBe(413);
    const bomb = gzipSync(Buffer.alloc(65 * 1024 * 1024, 0x20));
    const unzipped = await fetch(`${await address()}/v1/otel/v1/traces`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${client.apiKey}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: bomb,
    });
    expect(unzipped.status).toBe(413);
  });

  it('keeps one workspace’s trace apart from another’s under the same trace id', async () => {
    const first = await newWorkspace(context.test);
    const second = await newWorkspace(context.test);
    const traceId = hex(32);
    const root = jsonSpan({ traceId, name: 'first root' });
    await post(first, jsonRequest([root]));
    const intruder = jsonSpan({ traceId, parentSpanId: root.spanId, name: 'second child' });
    await post(second, jsonRequest([intruder]));
    const mine = await first.get(`/v1/traces/${traceId}`);
    expect(mine.body.spans.map((span: { name: string }) => span.name)).toEqual(['first root']);
    const theirs = await second.get(`/v1/traces/${traceId}`);
    expect(theirs.body).toMatchObject({ name: null, span_count: 1 });
    expect(theirs.body.spans.map((span: { name: string }) => span.name)).toEqual(['second child']);
    const other = await second.get(`/v1/traces/${hex(32)}`);
    expect(other.status).toBe(404);
  });

  it('lets every key role but viewer send spans', async () => {
    const { client, test } = context;
    for (const role of ['runner', 'developer', 'viewer']) {
      const key = (await client.post('/v1/api_keys', { name: `${role} exporter`, role })).body.api_key;
      const sender = clientFor(test.app, key, client.workspaceGuid);
      const answer = await post(sender, jsonRequest([jsonSpan()]));
      expect(answer.status, role).toBe(role === 'viewer' ? 403 : 200);
    }
  });

  it('names a trace by its root when the root arrives after its children, and filters the list', async () => {
    const client = await newWorkspace(context.test);
    const traceId = hex(32);
    const start = BigInt(Date.now()) * 1_000_000n;
    const root = jsonSpan({
      traceId,
      name: 'agent turn',
      startTimeUnixNano: start.toString(),
      endTimeUnixNano: (start + 900_000_000n).toString(),
      attributes: [attribute('session.id', 'conversation-7')],
    });
    const child = jsonSpan({ traceId, parentSpanId: root.spanId, name: 'tool call' });
    await post(client, jsonRequest([child], 'agent'));
    expect((await client.get(`/v1/traces/${traceId}`)).body.name).toBeNull();
    await post(client, jsonRequest([root], 'agent'));
    const named = await client.get(`/v1/traces/${traceId}`);
    expect(named.body).toMatchObject({
      name: 'agent turn',
      service_name: 'agent',
      session: 'conversation-7',
      span_count: 2,
    });
    expect(named.body.duration_ms).toBe(900);
    const quick = jsonSpan({ name: 'health check', status: { code: 2, message: 'down' } });
    await post(client, jsonRequest([quick], 'agent'));

    const ids = async (query: string) =>
      (await client.get(`/v1/traces?${query}`)).body.data.map(
        (trace: { trace_id: string }) => trace.trace_id,
      );
    expect(await ids('name=agent%20turn')).toEqual([traceId]);
    expect(await ids('session=conversation-7')).toEqual([traceId]);
    expect(await ids('status=ERROR')).toEqual([quick.traceId]);
    expect(await ids('min_duration_ms=500')).toEqual([traceId]);
    expect(await ids(`until=${new Date(Date.now() - 3_600_000).toISOString()}`)).toEqual([]);
    expect(await ids(`since=${new Date(Date.now() - 3_600_000).toISOString()}`)).toHaveLength(2);
    const bad = await client.get('/v1/traces?status=MAYBE');
    expect(bad.status).toBe(400);
    expect((await client.get('/v1/traces/not-a-trace')).status).toBe(400);
  });

  it('stores a GenAI model-call span as a generation with its cost, and as the prompt version the span names', async () => {
    const client = await newWorkspace(context.test);
    const action = await createAction(client, { name: 'Support reply' });
    const { tracer, flush, provider } = tracerFor(await exporter(client, 'protobuf'), 'support-bot');
    const request = tracer.startSpan('handle ticket', {
      attributes: { 'lectern.action': action.slug ?? action.guid, 'lectern.version': 1 },
    });
    const traceId = request.spanContext().traceId;
    const call = tracer.startSpan(
      'chat gpt-4o-mini',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4o-mini',
          'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
          'gen_ai.usage.input_tokens': 1000,
          'gen_ai.usage.output_tokens': 500,
          'gen_ai.input.messages': JSON.stringify([
            { role: 'user', parts: [{ type: 'text', content: 'Where is my parcel?' }] },
          ]),
          'gen_ai.output.messages': JSON.stringify([
            { role: 'assistant', parts: [{ type: 'text', content: 'It ships today.' }] },
          ]),
        } satisfies Attributes,
      },
      under(request),
    );
    call.end();
    request.end();
    await flush();
    await provider.shutdown();

    const got = await client.get(`/v1/traces/${traceId}`);
    const callSpan = got.body.spans.find((span: { name: string }) => span.name === 'chat gpt-4o-mini');
    expect(callSpan.data_guid).toEqual(expect.any(String));
    const generation = await client.get(`/v1/data/${callSpan.data_guid}`);
    expect(generation.body).toMatchObject({
      source: 'otel',
      trace_id: traceId,
      span_id: callSpan.span_id,
      action: action.guid,
      version: 1,
      model: 'gpt-4o-mini-2024-07-18',
      model_provider: 'openai',
      num_input_tokens: 1000,
      num_output_tokens: 500,
      output: 'It ships today.',
      full_prompt_sent: [{ role: 'user', content: 'Where is my parcel?' }],
    });
    expect(generation.body.cost.generation).toBeGreaterThan(0);
    expect(got.body.cost).toBeCloseTo(generation.body.cost.generation, 10);
    expect(got.body).toMatchObject({ input_tokens: 1000, output_tokens: 500 });
    // It counts in the Dashboard like a run, under its Action.
    const statistics = await client.get('/v1/statistics');
    expect(statistics.body.actions).toEqual([expect.objectContaining({ action: action.guid, runs: 1 })]);
    // A dataset takes it as it takes a run's generation: its input, its output as the expected one.
    const dataset = await client.post('/v1/datasets', { name: 'From traces' });
    const added = await client.post(`/v1/datasets/${dataset.body.guid}/items`, {
      from_data: [callSpan.data_guid],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const items = await client.get(`/v1/datasets/${dataset.body.guid}/items`);
    expect(items.body.data[0]).toMatchObject({ expected_output: 'It ships today.' });
  });
});

describe('the earlier GenAI attribute names', () => {
  it('reads gen_ai.system, prompt_tokens and indexed prompts, and the message events', async () => {
    const client = await newWorkspace(context.test);
    const indexed = jsonSpan({
      name: 'openai.chat',
      attributes: [
        attribute('gen_ai.system', 'openai'),
        attribute('gen_ai.request.model', 'gpt-4o-mini'),
        attribute('gen_ai.usage.prompt_tokens', 12),
        attribute('gen_ai.usage.completion_tokens', 3),
        attribute('gen_ai.prompt.0.role', 'user'),
        attribute('gen_ai.prompt.0.content', 'Hello?'),
        attribute('gen_ai.completion.0.role', 'assistant'),
        attribute('gen_ai.completion.0.content', 'Hi.'),
      ],
    });
    const start = BigInt(indexed.startTimeUnixNano);
    const evented = jsonSpan({
      name: 'chat claude',
      status: { code: 2, message: 'overloaded' },
      attributes: [
        attribute('gen_ai.operation.name', 'chat'),
        attribute('gen_ai.system', 'anthropic'),
        attribute('gen_ai.request.model', 'claude-3-5-haiku-20241022'),
        attribute('gen_ai.usage.input_tokens', 8),
        attribute('gen_ai.usage.output_tokens', 2),
      ],
      events: [
        {
          name: 'gen_ai.system.message',
          timeUnixNano: String(start),
          attributes: [attribute('content', 'Be brief.')],
        },
        {
          name: 'gen_ai.user.message',
          timeUnixNano: String(start),
          attributes: [attribute('content', 'Why?')],
        },
        {
          name: 'gen_ai.choice',
          timeUnixNano: String(start + 1n),
          attributes: [attribute('message', JSON.stringify({ role: 'assistant', content: 'Because.' }))],
        },
      ],
    });
    const answer = await post(client, jsonRequest([indexed, evented]));
    expect(answer.body).toEqual({});
    const generationOf = async (span: { traceId: string }) => {
      const found = await client.get(`/v1/traces/${span.traceId}`);
      return (await client.get(`/v1/data/${found.body.spans[0].data_guid}`)).body;
    };
    expect(await generationOf(indexed)).toMatchObject({
      action: null,
      model: 'gpt-4o-mini',
      model_provider: 'openai',
      num_input_tokens: 12,
      num_output_tokens: 3,
      full_prompt_sent: [{ role: 'user', content: 'Hello?' }],
      output: 'Hi.',
    });
    const failed = await generationOf(evented);
    expect(failed).toMatchObject({
      model: 'claude-3-5-haiku-20241022',
      model_provider: 'anthropic',
      full_prompt_sent: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Why?' },
      ],
      output: 'Because.',
      metadata: { error: 'overloaded' },
    });
    expect(failed.cost.generation).toBeGreaterThan(0);
  });
});
