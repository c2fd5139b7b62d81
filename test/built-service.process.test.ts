import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatUpstream, startChatUpstream } from './helpers/chat-upstream.js';
import {
  createTextAction,
  keyedCaller,
  lectern,
  type ServingProcess,
  serve,
  startGatewayProcess,
} from './helpers/lectern-process.js';
import { type Collector, startCollector } from './helpers/otlp-collector.js';
import { eventually, temporaryDirectory, useProcessEnvironment } from './helpers/test-app.js';

// What the sources' tests prove, proved again on `dist/` as `npm start` runs it: the parts that load
// on first use or cross a process boundary behave the same in the bundle (the trace export once did
// nothing there: a lazily imported CommonJS package resolved differently, scripts/check-lazy-imports.mjs).

const processEnvironment = useProcessEnvironment();
const apiKey = 'lec_built-service-test-key';
const call = keyedCaller(apiKey);

/** The embedded default in a data dir of its own, whatever the suite's pass (no PostgreSQL, no Redis). */
function embedded(dataDirectory: string, extra: Record<string, string> = {}): Record<string, string> {
  const {
    DATABASE_URL: _database,
    REDIS_URL: _redis,
    LECTERN_OUTBOUND_ALLOW: _allow,
    ...rest
  } = processEnvironment.values;
  return { ...rest, LECTERN_DATA_DIR: dataDirectory, LECTERN_INIT_API_KEY: apiKey, ...extra };
}

describe('the built service', () => {
  let collector: Collector;
  let service: ServingProcess;
  beforeAll(async () => {
    collector = await startCollector();
    // The collector is on loopback and LECTERN_OUTBOUND_ALLOW is unset: the operator's own address.
    service = await serve(embedded(temporaryDirectory(), { LECTERN_OTEL_EXPORT_ENDPOINT: collector.url }));
  });
  afterAll(async () => {
    await service?.stop();
    await collector?.close();
  });

  it("exports a run's spans to the collector LECTERN_OTEL_EXPORT_ENDPOINT names, a private address", async () => {
    const action = await createTextAction(call, service.baseUrl, {
      app: 'Exported',
      name: 'Exported greeter',
      model: 'mock/echo',
    });
    const run = await call(service.baseUrl, 'POST', `/v1/actions/${action}/prompt`, {
      input: { text: 'Ada' },
    });
    expect(run.status).toBe(200);
    const generation = await call(service.baseUrl, 'GET', `/v1/data/${run.body.data_guid}`);
    const exported = await eventually(async () => {
      const spans = collector.spans.filter((span) => span.traceId === generation.body.trace_id);
      return spans.length >= 2 ? spans : undefined;
    });
    expect(exported.map((span) => span.name).sort()).toEqual(['chat echo', 'run exported-greeter']);
    expect(service.output()).not.toContain('could not export run spans');
  });

  it('`prompts export` finds the service at LECTERN_URL, as pull, push and eval do', async () => {
    const out = path.join(temporaryDirectory(), 'snapshot.json');
    const { LECTERN_BASE_URL: _base, ...environment } = embedded(temporaryDirectory());
    const child = lectern(['prompts', 'export', '--out', out], {
      ...environment,
      LECTERN_URL: service.baseUrl,
      LECTERN_API_KEY: apiKey,
    });
    let output = '';
    child.stderr!.on('data', (chunk) => (output += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code, output).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveProperty('prompts');
  });

  it('serves MCP, whose server module loads on first use: an official client lists and calls a prompt', async () => {
    await createTextAction(call, service.baseUrl, {
      app: 'Agents',
      name: 'Built translator',
      model: 'mock/echo',
    });
    const mcp = new McpClient({ name: 'built-service-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
      }),
    );
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool.name)).toContain('built-translator');
      const result = await mcp.callTool({ name: 'built-translator', arguments: { text: 'Hallo' } });
      expect((result.content as { text: string }[])[0]!.text).toBe('Hallo');
    } finally {
      await mcp.close();
    }
  });

  it('answers a JSON 404 under /.well-known/, where an MCP client looks for OAuth metadata after a 401', async () => {
    for (const pathname of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource',
      '/.well-known/openid-configuration',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/anything-else',
    ]) {
      const response = await fetch(`${service.baseUrl}${pathname}`, { headers: { accept: 'text/html,*/*' } });
      expect(response.status, pathname).toBe(404);
      expect(response.headers.get('content-type'), pathname).toContain('application/json');
      expect(((await response.json()) as { error: { status: number } }).error.status).toBe(404);
    }
    // The console still answers its own deep links.
    const page = await fetch(`${service.baseUrl}/generations`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toContain('text/html');
  });
});

/** `lectern gateway` from dist/ in front of `upstream`, logging to `serviceUrl`. */
const startGateway = (serviceUrl: string, upstream: ChatUpstream) =>
  startGatewayProcess({
    ...processEnvironment.values,
    LECTERN_GATEWAY_UPSTREAM: `${upstream.url}/v1`,
    LECTERN_SERVICE_URL: serviceUrl,
    LECTERN_GATEWAY_DATA_DIR: temporaryDirectory(),
  });

describe('the built gateway in front of the built service', () => {
  let upstream: ChatUpstream;
  let service: ServingProcess;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    upstream = await startChatUpstream();
    service = await serve(embedded(temporaryDirectory()));
    gateway = await startGateway(service.baseUrl, upstream);
  });
  afterAll(async () => {
    await gateway?.stop();
    await service?.stop();
    await upstream?.close();
  });

  it("runs a managed prompt on the caller's own provider key, and logs it with its version and cost", async () => {
    const app = await call(service.baseUrl, 'POST', '/v1/apps', { name: 'Managed' });
    // An OpenAI model, and no OpenAI key in the workspace: the caller brings its own.
    const action = await call(service.baseUrl, 'POST', '/v1/actions/create', {
      app: app.body.guid,
      name: 'Support reply',
      slug: 'support-reply',
      model: 'openai/gpt-4o-mini',
      prompt: 'Answer {{question}}',
    });
    expect(action.status).toBe(201);
    await call(service.baseUrl, 'PUT', `/v1/actions/${action.body.guid}`, {
      prompt: 'Answer kindly: {{question}}',
    });
    await call(service.baseUrl, 'POST', `/v1/actions/${action.body.guid}/deploy`, {
      version: 2,
      environment: 'production',
    });
    const client = new OpenAI({
      apiKey: 'sk-caller-own-key',
      baseURL: `${gateway.address}/v1`,
      maxRetries: 0,
      defaultHeaders: { 'x-svc-api-key': apiKey },
    });
    const completion = await client.chat.completions.create({
      model: 'action:support-reply',
      messages: [],
      variables: { question: 'where is my order?' },
    } as never);
    expect(completion.choices[0]!.message.content).toBe('echo: Answer kindly: where is my order?');
    const forwarded = upstream.calls.at(-1)!;
    expect(forwarded.headers.authorization).toBe('Bearer sk-caller-own-key');
    expect(Object.keys(forwarded.headers).filter((name) => name.startsWith('x-svc-'))).toEqual([]);

    const logged = await eventually(async () => {
      const listed = await call(service.baseUrl, 'GET', `/v1/actions/${action.body.guid}/data`);
      return listed.body[0];
    }, 20_000);
    expect(logged).toMatchObject({
      source: 'gateway',
      model: 'gpt-4o-mini',
      version: 2,
      environment: 'production',
      num_input_tokens: 11,
      num_output_tokens: 7,
    });
    // gpt-4o-mini is priced: $0.15 in and $0.60 out per million tokens.
    expect(logged.cost.generation).toBeCloseTo((11 * 0.15 + 7 * 0.6) / 1_000_000, 12);
  });
});

describe('the built service stopped with SIGTERM', () => {
  it('releases the data directory lock after it has embedded a Document', async () => {
    const dataDirectory = temporaryDirectory();
    const first = await serve(embedded(dataDirectory));
    const context = await call(first.baseUrl, 'POST', '/v1/contexts', {
      name: 'Notes',
      description: 'Notes',
    });
    await call(first.baseUrl, 'POST', `/v1/contexts/${context.body.guid}/documents`, {
      content: 'Seals swim in cold water.',
    });
    // The default model embeds it in a process of its own.
    await eventually(async () => {
      const listed = await call(first.baseUrl, 'GET', `/v1/contexts/${context.body.guid}/documents`);
      return listed.body.data[0]?.embedding_status === 'embedded' ? true : undefined;
    }, 60_000);
    expect(await first.stop()).toBe(0);
    expect(first.output()).not.toContain('shutdown took too long');
    expect(existsSync(path.join(dataDirectory, 'lectern.lock'))).toBe(false);

    const second = await serve(embedded(dataDirectory));
    try {
      expect(second.output()).not.toContain('Took over the data directory lock');
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 120_000);
});
