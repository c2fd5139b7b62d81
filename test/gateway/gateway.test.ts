import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../../src/config.js';
import { generations } from '../../src/features/runtime/generations/tables.js';
import { createGateway, type Gateway } from '../../src/gateway/gateway.js';
import { createLogger } from '../../src/platform/logger.js';
import { type ChatUpstream, startChatUpstream } from '../helpers/chat-upstream.js';
import {
  createAction,
  eventually,
  listen,
  newWorkspace,
  temporaryDirectory,
  useTestWorkspace,
} from '../helpers/test-app.js';

const context = useTestWorkspace();
const providerKey = 'sk-canary-provider-key-7f3a9c';

let upstream: ChatUpstream;
let serviceUrl: string;
let gateway: Gateway;
let gatewayUrl: string;
let gatewayLogs: string[];
let action: { guid: string; slug: string };

async function startGateway(service: string, overrides: Partial<GatewayConfig> = {}) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const config: GatewayConfig = {
    port: 0,
    host: '127.0.0.1',
    upstream: `${upstream.url}/v1`,
    serviceUrl: service,
    queueLimit: 1_000,
    queueBytes: 64 * 1024 * 1024,
    logTextLimit: 65_536,
    dataDirectory: temporaryDirectory(),
    spoolBytes: 64 * 1024 * 1024,
    bodyLimitBytes: 1_000_000,
    logLevel: 'debug',
    ...overrides,
  };
  const started = createGateway(config, createLogger(config, destination));
  const url = await started.listen(0, '127.0.0.1');
  return { gateway: started, url, lines };
}

/** An OpenAI client of a gateway (the shared one unless named), sending the x-svc headers. */
function openai(headers: Record<string, string> = {}, url = gatewayUrl) {
  return new OpenAI({
    apiKey: providerKey,
    baseURL: `${url}/v1`,
    maxRetries: 0,
    defaultHeaders: { 'x-svc-api-key': context.client.apiKey, 'x-svc-action-guid': action.guid, ...headers },
  });
}

/** The generations of the Action, newest first, once there are `count` of them. */
async function loggedRecords(count: number, actionGuid = action.guid) {
  return eventually(async () => {
    // The page itself, not X-Total-Count: the count is a second query and may already see a row that
    // the page, read a moment earlier, did not.
    const response = await context.client.get(`/v1/actions/${actionGuid}/data?limit=100`);
    return response.body.length >= count ? response.body : undefined;
  });
}

beforeAll(async () => {
  upstream = await startChatUpstream();
  serviceUrl = await listen(context.test);
  action = await createAction(context.client, { name: 'Gateway logs', slug: 'gateway-logs' });
  ({ gateway, url: gatewayUrl, lines: gatewayLogs } = await startGateway(serviceUrl));
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('gateway pass-through', () => {
  it('forwards a completion unchanged with the caller’s Bearer and logs it to the Action', async () => {
    const before = Number(
      (await context.client.get(`/v1/actions/${action.guid}/data`)).headers['x-total-count'],
    );
    const { data: completion, response } = await openai()
      .chat.completions.create({
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'hello there' }],
        temperature: 0.3,
      })
      .withResponse();
    expect(completion.choices[0]!.message.content).toBe('echo: hello there');
    expect(response.headers.get('x-request-id')).toBe('req-ok');
    expect(response.headers.get('connection')).not.toBe('keep-alive, x-request-id');

    const call = upstream.calls.at(-1)!;
    expect(call.path).toBe('/v1/chat/completions');
    expect(call.body).toEqual({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hello there' }],
      temperature: 0.3,
    });
    expect(call.headers.authorization).toBe(`Bearer ${providerKey}`);
    expect(call.headers['x-svc-api-key']).toBeUndefined();
    expect(call.headers['x-svc-action-guid']).toBeUndefined();

    const [record] = await loggedRecords(before + 1);
    expect(record).toMatchObject({
      output: 'echo: hello there',
      model: 'gpt-test',
      num_input_tokens: 11,
      num_output_tokens: 7,
      source: 'gateway',
      full_prompt_sent: [{ role: 'user', content: 'hello there' }],
      metadata: { status: 200, stream: false, finish_reason: 'stop' },
    });
    expect(record.latency_ms).toEqual(expect.any(Number));
  });

  it("makes each logged interaction a trace, joining the caller's from its traceparent", async () => {
    const before = Number(
      (await context.client.get(`/v1/actions/${action.guid}/data`)).headers['x-total-count'],
    );
    const traceId = '5e'.repeat(16);
    const caller = '7a'.repeat(8);
    await openai({ traceparent: `00-${traceId}-${caller}-01` }).chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'traced through the gateway' }],
    });
    const [record] = await loggedRecords(before + 1);
    expect(record.trace_id).toBe(traceId);
    const trace = await eventually(async () => {
      const found = await context.client.get(`/v1/traces/${traceId}`);
      return found.status === 200 && found.body.spans.length === 2 ? found.body : undefined;
    });
    const [root, call] = trace.spans;
    expect(root).toMatchObject({ name: 'gateway gpt-test', kind: 'SERVER', parent_span_id: caller });
    expect(call).toMatchObject({
      name: 'chat gpt-test',
      kind: 'CLIENT',
      parent_span_id: root.span_id,
      span_id: record.span_id,
      data_guid: record.guid,
      attributes: { 'gen_ai.usage.input_tokens': 11, 'gen_ai.usage.output_tokens': 7 },
    });
    expect(call.duration_ms).toBeCloseTo(record.latency_ms, 0);
  });

  it('logs with a runner key, the role an application holds', async () => {
    const runner = await context.test.app.services.workspaces.createApiKey(context.client.workspaceGuid, {
      name: 'gateway',
      role: 'runner',
    });
    const before = Number(
      (await context.client.get(`/v1/actions/${action.guid}/data`)).headers['x-total-count'],
    );
    const completion = await openai({ 'x-svc-api-key': runner.apiKey }).chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'from a runner' }],
    });
    expect(completion.choices[0]!.message.content).toBe('echo: from a runner');
    const [record] = await loggedRecords(before + 1);
    expect(record).toMatchObject({ output: 'echo: from a runner', source: 'gateway' });
  });

  it('streams chunk by chunk and logs the reassembled output, counting tokens when no usage is sent', async () => {
    const before = Number(
      (await context.client.get(`/v1/actions/${action.guid}/data`)).headers['x-total-count'],
    );
    const stream = await openai().chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'stream this please' }],
      stream: true,
    });
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      chunks += 1;
    }
    expect(text).toBe('echo: stream this please');
    expect(chunks).toBeGreaterThan(4);
    const [record] = await loggedRecords(before + 1);
    expect(record).toMatchObject({
      output: 'echo: stream this please',
      metadata: { stream: true, usage_estimated: true },
    });
    expect(record.num_output_tokens).toBeGreaterThan(0);

    const withUsage = await openai().chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'count me' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const _chunk of withUsage);
    const [counted] = await loggedRecords(before + 2);
    expect(counted).toMatchObject({ output: 'echo: count me', num_input_tokens: 11, num_output_tokens: 7 });
    expect(counted.metadata.usage_estimated).toBeUndefined();
  });

  it('passes upstream 400, 429 and 500 through unchanged and logs their status', async () => {
    const before = Number(
      (await context.client.get(`/v1/actions/${action.guid}/data`)).headers['x-total-count'],
    );
    for (const status of [400, 429, 500]) {
      const failure = await openai()
        .chat.completions.create({ model: `fail-${status}`, messages: [{ role: 'user', content: 'x' }] })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OpenAI.APIError);
      const apiError = failure as InstanceType<typeof OpenAI.APIError>;
      expect(apiError.status).toBe(status);
      expect(apiError.message).toContain(`upstream says ${status}`);
      expect(apiError.headers?.get('x-request-id')).toBe(`req-${status}`);
      if (status === 429) expect(apiError.headers?.get('retry-after')).toBe('7');
    }
    const records = await loggedRecords(before + 3);
    const logged = records.filter((record: { model: string }) => record.model?.startsWith('fail-'));
    expect(logged.map((record: { metadata: { status: number } }) => record.metadata.status).sort()).toEqual([
      400, 429, 500,
    ]);
    expect(logged[0].metadata.error).toEqual({
      type: 'upstream_error',
      code: expect.stringMatching(/^code_/),
    });
    expect(JSON.stringify(logged)).not.toContain('upstream says');
  });

  it('aborts the upstream when the client leaves mid-stream and logs the partial output as incomplete', async () => {
    const other = await createAction(context.client, { name: 'Disconnects' });
    const controller = new AbortController();
    const response = await fetch(`${gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${providerKey}`,
        'content-type': 'application/json',
        'x-svc-api-key': context.client.apiKey,
        'x-svc-action-guid': other.guid,
      },
      body: JSON.stringify({
        model: 'slow',
        stream: true,
        messages: [{ role: 'user', content: 'a b c d e f g h i j' }],
      }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let received = '';
    while (!received.includes('"echo: "')) received += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const call = upstream.calls.at(-1)!;
    await eventually(async () => (call.aborted ? true : undefined));
    const [record] = await loggedRecords(1, other.guid);
    expect(record.metadata).toMatchObject({ incomplete: true, stream: true });
    expect('echo: a b c d e f g h i j'.startsWith(record.output)).toBe(true);
    expect(record.output.length).toBeLessThan('echo: a b c d e f g h i j'.length);
  });

  it("serves the AI SDK's openai.chat(...) as docs/api.md says; its Responses default is not served yet", async () => {
    const other = await createAction(context.client, { name: 'AI SDK' });
    const openaiProvider = createOpenAI({
      apiKey: providerKey,
      baseURL: `${gatewayUrl}/v1`,
      headers: { 'x-svc-api-key': context.client.apiKey, 'x-svc-action-guid': other.guid },
    });
    const answered = await generateText({
      model: openaiProvider.chat('gpt-test'),
      prompt: 'from the AI SDK',
      maxRetries: 0,
    });
    expect(answered.text).toBe('echo: from the AI SDK');
    const [record] = await loggedRecords(1, other.guid);
    expect(record).toMatchObject({ output: 'echo: from the AI SDK', source: 'gateway' });
    const responses = await generateText({
      model: openaiProvider('gpt-test'),
      prompt: 'from the AI SDK',
      maxRetries: 0,
    }).catch((error: unknown) => error);
    expect(responses).toMatchObject({ statusCode: 404 });
  });

  it('counts an exchange whose client left before the upstream answered as 499, not as an upstream 502', async () => {
    // An upstream that takes the request and never answers.
    const held: ServerResponse[] = [];
    const silent = createServer((_request, response) => held.push(response));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
    const patient = await startGateway(serviceUrl, { upstream: silentUrl });
    try {
      const controller = new AbortController();
      const leaving = fetch(`${patient.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${providerKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] }),
        signal: controller.signal,
      }).catch((error: unknown) => error);
      await eventually(async () => (held.length === 1 ? true : undefined));
      controller.abort();
      await leaving;
      const counted = await eventually(async () => {
        const metrics = await (await fetch(`${patient.url}/metrics`)).text();
        return /lectern_gateway_requests_total\{route="chat",status="499"\} 1/.test(metrics)
          ? metrics
          : undefined;
      });
      expect(counted).not.toMatch(/status="502"/);
    } finally {
      await patient.gateway.close();
      for (const response of held) response.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('passes GET /models through and answers /healthz and /metrics', async () => {
    const models = await openai().models.list();
    expect(models.data.map((model) => model.id)).toEqual(['gpt-test']);
    expect(await (await fetch(`${gatewayUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    const metrics = await (await fetch(`${gatewayUrl}/metrics`)).text();
    expect(metrics).toMatch(/lectern_gateway_requests_total\{route="chat",status="200"\} \d+/);
    expect(metrics).toContain('lectern_gateway_overhead_seconds_bucket');
    expect(metrics).toContain('lectern_gateway_upstream_duration_seconds_count');
    expect(metrics).toContain('lectern_gateway_log_queue_depth');
    expect(metrics).toContain('lectern_gateway_logs_sent_total');
    expect((await fetch(`${gatewayUrl}/nothing`)).status).toBe(404);
  });
  it('answers 413 for a body over its limit, without forwarding it', async () => {
    const small = await startGateway(serviceUrl, { bodyLimitBytes: 200 });
    try {
      const calls = upstream.calls.length;
      const response = await fetch(`${small.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${providerKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'x'.repeat(1_000) }] }),
      });
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('body_too_large');
      expect(upstream.calls.length).toBe(calls);
    } finally {
      await small.gateway.close();
    }
  });
});

describe('gateway logging rules', () => {
  it('never logs with an invalid key or an Action the key cannot see, and says so in its own log', async () => {
    const stranger = await newWorkspace(context.test);
    const foreign = await createAction(stranger);
    const cases: Record<string, string>[] = [
      { 'x-svc-api-key': 'lec_not_a_real_key_000000000000000000000', 'x-svc-action-guid': action.guid },
      { 'x-svc-action-guid': foreign.guid },
    ];
    const before = Number(
      (await context.client.get(`/v1/actions/${action.guid}/data`)).headers['x-total-count'],
    );
    for (const headers of cases) {
      const completion = await openai(headers).chat.completions.create({
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'not logged' }],
      });
      expect(completion.choices[0]!.message.content).toBe('echo: not logged');
    }
    await eventually(async () =>
      gatewayLogs.some((line) => line.includes('cannot see the Action')) ? true : undefined,
    );
    expect(Number((await stranger.get(`/v1/actions/${foreign.guid}/data`)).headers['x-total-count'])).toBe(0);
    expect(
      Number((await context.client.get(`/v1/actions/${action.guid}/data`)).headers['x-total-count']),
    ).toBe(before);
    // Counts reach the metrics with the log worker's next report.
    await eventually(async () => {
      const metrics = await (await fetch(`${gatewayUrl}/metrics`)).text();
      return /lectern_gateway_logs_dropped_total\{reason="rejected"\} [1-9]/.test(metrics) ? true : undefined;
    });
  });

  it('proxies requests without the x-svc headers and counts them as unattributed', async () => {
    const bare = new OpenAI({ apiKey: providerKey, baseURL: `${gatewayUrl}/v1`, maxRetries: 0 });
    const completion = await bare.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'anon' }],
    });
    expect(completion.choices[0]!.message.content).toBe('echo: anon');
    const metrics = await (await fetch(`${gatewayUrl}/metrics`)).text();
    expect(metrics).toMatch(/lectern_gateway_logs_dropped_total\{reason="no_credentials"\} [1-9]/);
  });

  it('answers the client unaffected while the service is down; logs wait in the spool and reach the service after a restart', async () => {
    const dataDirectory = temporaryDirectory();
    const waiting = await createAction(context.client, { name: 'Spooled logs' });
    const down = await startGateway('http://127.0.0.1:9', { dataDirectory });
    try {
      const client = openai({ 'x-svc-action-guid': waiting.guid }, down.url);
      for (let index = 0; index < 3; index++) {
        const completion = await client.chat.completions.create({
          model: 'gpt-test',
          messages: [{ role: 'user', content: `still fine ${index}` }],
        });
        expect(completion.choices[0]!.message.content).toBe(`echo: still fine ${index}`);
      }
      await eventually(async () =>
        down.lines.some((line) => line.includes('service unavailable')) ? true : undefined,
      );
      await eventually(async () => (down.gateway.shipper.depth() === 3 ? true : undefined));
    } finally {
      await down.gateway.close(500);
    }
    // Nothing was dropped: the three wait in the spool, and the next start on it ships them.
    const metrics = await down.gateway.metrics.registry.metrics();
    expect(metrics).not.toMatch(/lectern_gateway_logs_dropped_total\{reason=/);
    expect(down.lines.some((line) => line.includes('left in the spool for the next start'))).toBe(true);
    const back = await startGateway(serviceUrl, { dataDirectory });
    try {
      const records = await loggedRecords(3, waiting.guid);
      expect(records.map((record: { output: string }) => record.output).sort()).toEqual([
        'echo: still fine 0',
        'echo: still fine 1',
        'echo: still fine 2',
      ]);
      await eventually(async () => (back.gateway.shipper.depth() === 0 ? true : undefined));
    } finally {
      await back.gateway.close();
    }
  });
});

describe('bounded logging (hardening)', () => {
  it('bounds the queue in bytes while the service is down, and cuts each logged text to its limit', async () => {
    const down = await startGateway('http://127.0.0.1:9');
    try {
      const client = openai({}, down.url);
      // The log worker is up once it has queued a first small interaction.
      await client.chat.completions.create({
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'first' }],
      });
      await eventually(async () => (down.gateway.shipper.depth() === 1 ? true : undefined));
      const huge = 'x'.repeat(900_000);
      for (let index = 0; index < 12; index++) {
        const completion = await client.chat.completions.create({
          model: 'gpt-test',
          messages: [{ role: 'user', content: huge }],
        });
        expect(completion.choices[0]!.message.content?.length).toBeGreaterThan(900_000);
      }

      // Each record keeps at most 64 KiB per text: a dozen exchanges of 1.8 MB (22 MB) wait as ~2.4 MB.
      await eventually(async () => (down.gateway.shipper.depth() === 13 ? true : undefined), 30_000);
      await eventually(async () => (down.gateway.shipper.bytes() < 4 * 1024 * 1024 ? true : undefined));
    } finally {
      await down.gateway.close();
    }

    // The spool holds 3 MB (~2 of these records): past it, interactions are dropped and counted.
    const tight = await startGateway('http://127.0.0.1:9', {
      spoolBytes: 3 * 1024 * 1024,
      logTextLimit: 10_000_000,
    });
    try {
      const client = openai({}, tight.url);
      for (let index = 0; index < 6; index++) {
        await client.chat.completions.create({
          model: 'gpt-test',
          messages: [{ role: 'user', content: 'y'.repeat(500_000) }],
        });
      }
      await eventually(async () =>
        /lectern_gateway_logs_dropped_total\{reason="spool_full"\} [1-9]/.test(
          await tight.gateway.metrics.registry.metrics(),
        )
          ? true
          : undefined,
      );
      expect(tight.gateway.shipper.depth()).toBeLessThan(6);
      expect(tight.gateway.shipper.depth()).toBeGreaterThan(0);
    } finally {
      await tight.gateway.close();
    }
  });

  it('logs a cut record marked truncated, and names refused keys by fingerprint, not "[redacted]"', async () => {
    const limited = await startGateway(serviceUrl, { logTextLimit: 1_000 });
    try {
      const client = openai({}, limited.url);
      await client.chat.completions.create({
        model: 'gpt-test',
        messages: [{ role: 'user', content: `marker ${'z'.repeat(5_000)}` }],
      });
      const records = await eventually(async () => {
        const response = await context.client.get(`/v1/actions/${action.guid}/data?limit=100`);
        return response.body.find(
          (record: { metadata?: { truncated?: boolean } }) => record.metadata?.truncated,
        );
      });
      expect(records.output.length).toBe(1_000);
      expect(records.full_prompt_sent[0].content.length).toBe(1_000);

      const stranger = openai({ 'x-svc-api-key': 'lec_not-a-real-key-0000000000' }, limited.url);
      await stranger.chat.completions.create({
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'who' }],
      });
      const refused = await eventually(async () =>
        limited.lines.find((line) => line.includes('interaction not logged') && line.includes('rejected')),
      );
      expect(refused).toMatch(/"key_fingerprint":"sha256:[0-9a-f]{12}"/);
      expect(refused).not.toContain('[redacted]');
      expect(limited.lines.join('\n')).not.toContain('lec_not-a-real-key');
    } finally {
      await limited.gateway.close();
    }
  });
});

describe('managed prompts (model "action:<slug>")', () => {
  it('renders the Action’s messages and model from variables, forwards them and logs to that Action', async () => {
    await context.client.post('/v1/providers', {
      provider: 'openai-compatible',
      url: `${upstream.url}/v1`,
      nickname: 'up',
    });
    const managed = await createAction(context.client, {
      name: 'Managed',
      slug: 'managed-greeting',
      model: 'up/gpt-managed',
      system_message: 'You are terse.',
      prompt: 'Greet {{name}}',
      model_config: { temperature: 0.1 },
    });
    await context.client.put(`/v1/actions/${managed.guid}`, { prompt: 'Welcome {{name}}' });
    await context.client.post(`/v1/actions/${managed.guid}/deploy`, { version: 2, environment: 'staging' });
    const client = new OpenAI({
      apiKey: providerKey,
      baseURL: `${gatewayUrl}/v1`,
      maxRetries: 0,
      defaultHeaders: { 'x-svc-api-key': context.client.apiKey },
    });
    const body = { model: 'action:managed-greeting', messages: [], variables: { name: 'Ada' } } as never;
    const completion = await client.chat.completions.create(body);
    expect(completion.choices[0]!.message.content).toBe('echo: Greet Ada');
    const call = upstream.calls.at(-1)!;
    expect(call.body).toMatchObject({
      model: 'gpt-managed',
      temperature: 0.1,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Greet Ada' },
      ],
    });
    expect(call.body.variables).toBeUndefined();
    expect(call.body.headers).toBeUndefined();
    expect(call.headers.authorization).toBe(`Bearer ${providerKey}`);

    const staged = await client.chat.completions.create({
      ...(body as object),
      model: 'action:managed-greeting@staging',
    } as never);
    expect(staged.choices[0]!.message.content).toBe('echo: Welcome Ada');
    const records = await loggedRecords(2, managed.guid);
    expect(records.map((record: { output: string }) => record.output).sort()).toEqual([
      'echo: Greet Ada',
      'echo: Welcome Ada',
    ]);
    expect(records[0]).toMatchObject({ input: { name: 'Ada' }, source: 'gateway', model: 'gpt-managed' });

    const unknown = await client.chat.completions
      .create({ model: 'action:no-such-action', messages: [] } as never)
      .catch((error: unknown) => error);
    expect(unknown).toMatchObject({ status: 404 });
    const withoutKey = await new OpenAI({
      apiKey: providerKey,
      baseURL: `${gatewayUrl}/v1`,
      maxRetries: 0,
    }).chat.completions
      .create({ model: 'action:managed-greeting', messages: [] } as never)
      .catch((error: unknown) => error);
    expect(withoutKey).toMatchObject({ status: 400 });
  });

  it('keeps both keys out of the gateway’s log, its error bodies and the stored rows', async () => {
    const everything = gatewayLogs.join('\n');
    expect(everything).not.toContain(providerKey);
    expect(everything).not.toContain(context.client.apiKey);
    const rows = await context.test.platform.database.database.select().from(generations);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(providerKey);
    expect(stored).not.toContain(context.client.apiKey);
    const error = await fetch(`${gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${providerKey}`,
        'x-svc-api-key': context.client.apiKey,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ model: 'action:no-such-action', messages: [] }),
    });
    const text = await error.text();
    expect(text).not.toContain(providerKey);
    expect(text).not.toContain(context.client.apiKey);
  });
});
