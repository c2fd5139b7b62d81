import { OpenAIInstrumentation as OpenInferenceInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import { Lectern } from '@lectern/client';
import { context as contextApi, type Tracer, trace as traceApi } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OpenAIInstrumentation as ContribInstrumentation } from '@opentelemetry/instrumentation-openai';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OpenAIInstrumentation as OpenLLMetryInstrumentation } from '@traceloop/instrumentation-openai';
import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatUpstream, startChatUpstream } from '../helpers/chat-upstream.js';
import { type Client, createAction, listen, newWorkspace, useTestWorkspace } from '../helpers/test-app.js';

// Spans recorded by the instrumentations teams use, sent to Lectern by the OpenTelemetry SDK's
// exporter: OpenLLMetry's and the OpenTelemetry project's OpenAI instrumentations (the GenAI
// conventions), OpenInference's (llm.* attributes) and the AI SDK's telemetry (ai.* spans). Each
// model call becomes a generation of the prompt version the span around it names.

const context = useTestWorkspace();
let upstream: ChatUpstream;
let address: string;
beforeAll(async () => {
  upstream = await startChatUpstream();
  address = await listen(context.test);
});
afterAll(() => upstream.close());

/** A tracer provider that exports each span to the workspace as an application's would. */
function providerFor(client: Client) {
  return new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'support-bot' }),
    spanProcessors: [
      new SimpleSpanProcessor(
        new OTLPTraceExporter({
          url: `${address}/v1/otel/v1/traces`,
          headers: { Authorization: `Bearer ${client.apiKey}` },
        }),
      ),
    ],
  });
}

/**
 * Runs `work` under a span that names the prompt version (as the Lectern client marks what it
 * renders), with that span active so the instrumentation's span is its child. Answers the trace id.
 */
async function underMarkedSpan(tracer: Tracer, slug: string, work: () => Promise<unknown>): Promise<string> {
  const span = tracer.startSpan('answer ticket', {
    attributes: { 'lectern.action': slug, 'lectern.version': 1 },
  });
  await contextApi.with(traceApi.setSpan(contextApi.active(), span), work);
  span.end();
  return span.spanContext().traceId;
}

/** The generation each model-call span of the trace became. */
async function generationsOf(client: Client, traceId: string) {
  const found = await client.get(`/v1/traces/${traceId}`);
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  const calls = found.body.spans.filter((span: { data_guid: string | null }) => span.data_guid);
  return Promise.all(
    calls.map(async (span: { data_guid: string }) => (await client.get(`/v1/data/${span.data_guid}`)).body),
  );
}

const openai = () => new OpenAI({ apiKey: 'sk-test', baseURL: `${upstream.url}/v1` });
const messages = [
  { role: 'system' as const, content: 'You answer parcel questions.' },
  { role: 'user' as const, content: 'Where is my parcel?' },
];

describe('model calls from instrumentation libraries', () => {
  // Spans are made in an active context only with a context manager: the SDK's async one.
  beforeAll(async () => {
    const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
    contextApi.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => contextApi.disable());

  const instrumentations = [
    {
      name: 'OpenLLMetry (GenAI conventions)',
      make: () => new OpenLLMetryInstrumentation({ traceContent: true }),
      patch: (instrumentation: OpenLLMetryInstrumentation) =>
        instrumentation.manuallyInstrument(OpenAI as never),
      // Its unpatch is private in the types, though it is what its own disable calls.
      unpatch: (instrumentation: OpenLLMetryInstrumentation) =>
        (instrumentation as unknown as { unpatch(module: unknown): void }).unpatch({ OpenAI }),
      content: true,
    },
    {
      name: 'OpenTelemetry contrib (GenAI conventions)',
      make: () => new ContribInstrumentation({ captureMessageContent: true }),
      patch: (instrumentation: ContribInstrumentation) =>
        instrumentation.getModuleDefinitions()[0]!.patch!({ OpenAI } as never),
      unpatch: (instrumentation: ContribInstrumentation) =>
        instrumentation.getModuleDefinitions()[0]!.unpatch!({ OpenAI } as never),
      // It sends message content as log records, not on the span.
      content: false,
    },
    {
      name: 'OpenInference',
      make: () => new OpenInferenceInstrumentation(),
      patch: (instrumentation: OpenInferenceInstrumentation) =>
        instrumentation.manuallyInstrument({ OpenAI } as never),
      unpatch: (instrumentation: OpenInferenceInstrumentation) => instrumentation.disable(),
      content: true,
    },
  ] as const;

  for (const each of instrumentations) {
    it(`stores ${each.name}'s chat span as a generation of the marked prompt version, with its cost`, async () => {
      const client = await newWorkspace(context.test);
      const action = await createAction(client, { name: 'Parcel answers' });
      const provider = providerFor(client);
      const instrumentation = each.make() as never;
      (instrumentation as { setTracerProvider(provider: unknown): void }).setTracerProvider(provider);
      each.patch(instrumentation);
      let traceId: string;
      try {
        traceId = await underMarkedSpan(provider.getTracer('app'), action.slug, () =>
          openai().chat.completions.create({ model: 'gpt-4o-mini', messages }),
        );
      } finally {
        each.unpatch(instrumentation);
      }
      await provider.forceFlush();
      await provider.shutdown();

      const [generation, ...others] = await generationsOf(client, traceId);
      expect(others).toEqual([]);
      expect(generation).toMatchObject({
        source: 'otel',
        action: action.guid,
        version: 1,
        model: 'gpt-4o-mini',
        model_provider: expect.stringMatching(/openai/i),
        num_input_tokens: 11,
        num_output_tokens: 7,
        cost: { generation: expect.any(Number) },
      });
      expect(generation.cost.generation).toBeGreaterThan(0);
      if (each.content) {
        expect(generation.output).toBe('echo: Where is my parcel?');
        expect(generation.full_prompt_sent).toEqual([
          { role: 'system', content: 'You answer parcel questions.' },
          { role: 'user', content: 'Where is my parcel?' },
        ]);
      }
    });
  }

  it('stores a Node app’s call made with a prompt the Lectern client rendered as a generation of that version', async () => {
    const client = await newWorkspace(context.test);
    const action = await createAction(client, { name: 'Rendered', prompt: 'Answer {{name}} kindly.' });
    const provider = providerFor(client);
    const instrumentation = new OpenLLMetryInstrumentation({ traceContent: true });
    instrumentation.setTracerProvider(provider);
    instrumentation.manuallyInstrument(OpenAI as never);
    const lectern = new Lectern({
      baseUrl: address,
      apiKey: client.apiKey,
      tracer: provider.getTracer('app'),
      prompts: { subscribe: false },
    });
    try {
      await lectern.prompts.withRendered(action.slug, { name: 'Ada' }, (rendered) =>
        openai().chat.completions.create({ model: 'gpt-4o-mini', messages: rendered as never }),
      );
    } finally {
      (instrumentation as unknown as { unpatch(module: unknown): void }).unpatch({ OpenAI });
      await lectern.close();
    }
    await provider.forceFlush();
    await provider.shutdown();

    const listed = await client.get('/v1/traces');
    expect(listed.body.data).toEqual([
      expect.objectContaining({ name: `lectern.render ${action.slug}`, service_name: 'support-bot' }),
    ]);
    const [generation] = await generationsOf(client, listed.body.data[0].trace_id);
    expect(generation).toMatchObject({
      source: 'otel',
      action: action.guid,
      version: 1,
      model: 'gpt-4o-mini',
      full_prompt_sent: [{ role: 'user', content: 'Answer Ada kindly.' }],
    });
    expect(generation.cost.generation).toBeGreaterThan(0);
  });

  it("stores the AI SDK's provider call (not its outer span too) with the version its telemetry metadata names", async () => {
    const client = await newWorkspace(context.test);
    const action = await createAction(client, { name: 'SDK answers' });
    const provider = providerFor(client);
    const model = new MockLanguageModelV3({
      modelId: 'gpt-4o-mini',
      provider: 'openai.chat',
      doGenerate: async () => ({
        content: [{ type: 'text', text: 'It ships today.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 20, noCache: 20, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 5, text: 5, reasoning: undefined },
        },
        warnings: [],
      }),
    });
    const result = await generateText({
      model,
      prompt: 'Where is my parcel?',
      experimental_telemetry: {
        isEnabled: true,
        tracer: provider.getTracer('ai'),
        metadata: { 'lectern.action': action.slug, 'lectern.version': 1 },
      },
    });
    expect(result.text).toBe('It ships today.');
    await provider.forceFlush();
    await provider.shutdown();

    const traces = await client.get('/v1/traces');
    expect(traces.body.data).toHaveLength(1);
    const [generation, ...others] = await generationsOf(client, traces.body.data[0].trace_id);
    expect(others).toEqual([]);
    expect(generation).toMatchObject({
      source: 'otel',
      action: action.guid,
      version: 1,
      model: 'gpt-4o-mini',
      model_provider: 'openai',
      num_input_tokens: 20,
      num_output_tokens: 5,
      output: 'It ships today.',
    });
    expect(generation.full_prompt_sent.at(-1)).toEqual({ role: 'user', content: 'Where is my parcel?' });
  });
});
