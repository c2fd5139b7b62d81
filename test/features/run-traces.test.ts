import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../helpers/otlp-collector.js';
import { type Client, createAction, eventually, useTestWorkspace } from '../helpers/test-app.js';

// Lectern's own runs are traces (docs/traces.md#lecterns-own-runs): a root span per run with the
// model call under it, the generation on that span; a caller's traceparent is joined; with
// LECTERN_OTEL_EXPORT_ENDPOINT the spans also go to a collector.

let collector: Collector;
beforeAll(async () => {
  collector = await startCollector();
});
afterAll(() => collector.close());

const context = useTestWorkspace(() => ({ LECTERN_OTEL_EXPORT_ENDPOINT: collector.url }), {
  startJobs: true,
  ownJobQueue: true,
});

/** The stored trace once it holds `spans` spans (a run's spans are stored within a second). */
async function traceWith(client: Client, traceId: string, spans: number) {
  return eventually(async () => {
    const found = await client.get(`/v1/traces/${traceId}`);
    return found.status === 200 && found.body.spans.length >= spans ? found.body : undefined;
  });
}

describe("Lectern's own runs as traces", () => {
  it('makes a sync run a trace whose model-call span holds its generation, with the cost and tokens', async () => {
    const { client } = context;
    const action = await createAction(client, { name: 'Traced greeter' });
    const run = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'Ada' } });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    const generation = (await client.get(`/v1/data/${run.body.data_guid}`)).body;
    expect(generation.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const trace = await traceWith(client, generation.trace_id, 2);
    expect(trace).toMatchObject({ name: `run ${action.slug}`, service_name: 'lectern', status: 'UNSET' });
    const [root, call] = trace.spans;
    expect(root).toMatchObject({
      kind: 'SERVER',
      parent_span_id: null,
      attributes: { 'lectern.action': action.guid, 'lectern.version': 1, 'lectern.source': 'sync' },
    });
    expect(root.attributes['lectern.workspace']).toBeUndefined();
    expect(call).toMatchObject({
      name: 'chat echo',
      kind: 'CLIENT',
      parent_span_id: root.span_id,
      span_id: generation.span_id,
      data_guid: generation.guid,
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'echo' },
    });
    expect(trace.input_tokens).toBe(generation.num_input_tokens);
  });

  it('has a retrieval span for a version with Contexts, a span per model call of a tool loop, and each tool call under the call that asked for it', async () => {
    const { client } = context;
    const library = await client.post('/v1/contexts', { name: 'Facts', description: 'Facts' });
    await client.post(`/v1/contexts/${library.body.guid}/documents`, { content: 'Six times seven is 42.' });
    const skill = await client.post('/v1/skills', { name: 'Exact maths', type: 'calculator' });
    const action = await createAction(client, {
      name: 'Tools and facts',
      model: 'mock/tool',
      prompt: '{{question}}',
      contexts: [library.body.guid],
      skills: [skill.body.guid],
    });
    const run = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { question: '6 * 7' } });
    expect(run.body.msg).toBe('tool said: 42');
    const generation = (await client.get(`/v1/data/${run.body.data_guid}`)).body;
    const trace = await traceWith(client, generation.trace_id, 5);
    const byName = (name: string) => trace.spans.find((span: { name: string }) => span.name === name);
    const root = byName(`run ${action.slug}`);
    expect(byName('retrieve')).toMatchObject({
      parent_span_id: root.span_id,
      attributes: { 'lectern.contexts': 1 },
    });
    // The model asks for the tool, the tool runs, the model is called again with its result.
    const calls = trace.spans.filter((span: { name: string }) => span.name === 'chat tool');
    expect(calls).toHaveLength(2);
    for (const call of calls)
      expect(call).toMatchObject({ parent_span_id: root.span_id, data_guid: generation.guid });
    // Siblings come in the order they started: the call that asked for the tool, then the one after it.
    const [asking, answering] = calls;
    expect(byName('execute_tool Exact_maths')).toMatchObject({
      parent_span_id: asking.span_id,
      attributes: { 'gen_ai.tool.name': 'Exact_maths' },
    });
    // Each call holds its own tokens: together they are the generation's; the answering one has the cost.
    const tokens = (key: string) =>
      calls.reduce(
        (sum: number, call: { attributes: Record<string, number> }) => sum + call.attributes[key]!,
        0,
      );
    expect(tokens('gen_ai.usage.input_tokens')).toBe(generation.num_input_tokens);
    expect(tokens('gen_ai.usage.output_tokens')).toBe(generation.num_output_tokens);
    expect(trace.input_tokens).toBe(generation.num_input_tokens);
    expect(answering.attributes['lectern.cost_usd']).toBeDefined();
    expect(asking.attributes['lectern.cost_usd']).toBeUndefined();
    expect(generation.span_id).toBe(answering.span_id);
  });

  it("joins the caller's trace from its traceparent, and an async run's job continues the request's trace", async () => {
    const { client } = context;
    const action = await createAction(client, { name: 'Joined' });
    const traceId = 'ab'.repeat(16);
    const parent = 'cd'.repeat(8);
    const run = await client.request(
      'POST',
      `/v1/actions/${action.guid}/prompt`,
      { input: { name: 'Grace' } },
      { traceparent: `00-${traceId}-${parent}-01` },
    );
    const generation = (await client.get(`/v1/data/${run.body.data_guid}`)).body;
    expect(generation.trace_id).toBe(traceId);
    const joined = await traceWith(client, traceId, 2);
    expect(joined.spans[0].parent_span_id).toBe(parent);
    // Its root's parent is the caller's span, which Lectern does not hold: the trace has no name.
    expect(joined.name).toBeNull();

    const queued = await client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { name: 'Async' },
      async_mode: true,
    });
    expect(queued.status).toBe(200);
    const finished = await eventually(async () => {
      const found = await client.get(`/v1/data/${queued.body.data_guid}`);
      return found.status === 200 ? found.body : undefined;
    });
    const continued = await traceWith(client, finished.trace_id, 3);
    const names = continued.spans.map((span: { name: string }) => span.name);
    expect(names).toEqual([`run ${action.slug}`, `run ${action.slug}`, 'chat echo']);
    expect(continued.spans[1].parent_span_id).toBe(continued.spans[0].span_id);
  });

  it('exports its spans to the collector LECTERN_OTEL_EXPORT_ENDPOINT names, without the workspace', async () => {
    const { client } = context;
    const action = await createAction(client, { name: 'Exported' });
    const run = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'Export' } });
    const generation = (await client.get(`/v1/data/${run.body.data_guid}`)).body;
    const exported = await eventually(async () => {
      const ofRun = collector.spans.filter((span) => span.traceId === generation.trace_id);
      return ofRun.length >= 2 ? ofRun : undefined;
    });
    expect(exported.map((span) => span.name).sort()).toEqual(['chat echo', `run ${action.slug}`]);
    for (const span of exported) expect(span.attributes['lectern.workspace']).toBeUndefined();
  });

  it("stores a logged gateway call's trace with its record, and exports the same spans", async () => {
    const { client } = context;
    const action = await createAction(client, { name: 'Proxied' });
    const logged = await client.post('/v1/data/batch', {
      records: [
        {
          action: action.guid,
          input: [{ role: 'user', content: 'proxied' }],
          output: 'answered',
          source: 'gateway',
          model: 'gpt-4o-mini',
          model_provider: 'openai',
          num_input_tokens: 12,
          num_output_tokens: 4,
          latency_ms: 40,
          metadata: { status: 200 },
        },
      ],
    });
    expect(logged.status, JSON.stringify(logged.body)).toBe(201);
    const generation = (await client.get(`/v1/data/${logged.body.data[0].guid}`)).body;
    // Written in the batch's transaction: readable once the batch is acknowledged, with no wait.
    const trace = await client.get(`/v1/traces/${generation.trace_id}`);
    expect(trace.status).toBe(200);
    expect(trace.body).toMatchObject({
      name: 'gateway gpt-4o-mini',
      span_count: 2,
      input_tokens: 12,
      output_tokens: 4,
      cost: generation.cost.generation,
    });
    const [root, call] = trace.body.spans;
    expect(root).toMatchObject({ kind: 'SERVER', parent_span_id: null });
    expect(call).toMatchObject({
      name: 'chat gpt-4o-mini',
      kind: 'CLIENT',
      parent_span_id: root.span_id,
      span_id: generation.span_id,
      data_guid: generation.guid,
    });
    expect(call.duration_ms).toBeCloseTo(40, 0);
    const exported = await eventually(async () => {
      const ofCall = collector.spans.filter((span) => span.traceId === generation.trace_id);
      return ofCall.length >= 2 ? ofCall : undefined;
    });
    expect(exported.map((span) => span.spanId).sort()).toEqual([root.span_id, call.span_id].sort());
    for (const span of exported) expect(span.attributes['lectern.workspace']).toBeUndefined();
  });
});
