import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp, eventually, listen, useTestWorkspace } from '../helpers/test-app.js';

// The MCP endpoint (docs/mcp.md), spoken to by the official SDK's client over Streamable HTTP: the
// deployed prompts as prompts and tools, key roles, and tool calls recorded as generations.
const context = useTestWorkspace({}, { startJobs: true });
let address = '';
let library = '';

beforeAll(async () => {
  address = await listen(context.test);
  const { client } = context;
  const app = await createApp(client, 'Agents');
  await client.post('/v1/actions/create', {
    app,
    name: 'Translator',
    slug: 'translator',
    description: 'Translates a sentence',
    model: 'mock/echo',
    system_message: 'You translate into {{language}}.',
    prompt: 'Translate: {{text}}',
  });
  const staged = await client.post('/v1/actions/create', {
    app,
    name: 'Staged',
    slug: 'staged-only',
    model: 'mock/echo',
    prompt: 'Hi {{name}}',
    default_environment: 'staging',
  });
  expect(staged.status).toBe(201);
  library = (await client.post('/v1/contexts', { name: 'Handbook', description: 'Policies' })).body.guid;
  await client.post(`/v1/contexts/${library}/documents`, {
    content: 'Refunds are paid within fourteen days of a return.',
  });
  await client.post(`/v1/contexts/${library}/documents`, { content: 'Our office is closed on Sundays.' });
  await eventually(async () =>
    (await client.get(`/v1/contexts/${library}`)).body.processed ? true : undefined,
  );
});

async function keyOf(role: string): Promise<string> {
  const created = await context.client.post('/v1/api_keys', { name: `${role} agent`, role });
  expect(created.status).toBe(201);
  return created.body.api_key;
}

async function connect(apiKey: string, query = '') {
  const mcp = new McpClient({ name: 'lectern-test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${address}/mcp${query}`), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    }),
  );
  return mcp;
}

describe('MCP', () => {
  it('refuses a request without a key, and is stateless (no GET stream)', async () => {
    const anonymous = await fetch(`${address}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(anonymous.status).toBe(401);
    const stream = await fetch(`${address}/mcp`, {
      headers: { authorization: `Bearer ${context.client.apiKey}` },
    });
    expect(stream.status).toBe(405);
    expect(stream.headers.get('allow')).toBe('POST');
  });

  it("lists the default environment's deployed prompts with their variables, and renders one", async () => {
    const mcp = await connect(await keyOf('runner'));
    expect(mcp.getServerVersion()?.name).toBe('lectern');
    const { prompts } = await mcp.listPrompts();
    const translator = prompts.find((prompt) => prompt.name === 'translator');
    expect(translator).toMatchObject({
      title: 'Translator',
      description: 'Translates a sentence (version 1, deployed in production)',
      arguments: [
        { name: 'language', required: true },
        { name: 'text', required: true },
      ],
    });
    // Each Action's default environment: the staged one is listed too.
    expect(prompts.map((prompt) => prompt.name)).toContain('staged-only');
    const rendered = await mcp.getPrompt({
      name: 'translator',
      arguments: { language: 'French', text: 'Good day' },
    });
    expect(rendered.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'You translate into French.' } },
      { role: 'user', content: { type: 'text', text: 'Translate: Good day' } },
    ]);
    await expect(mcp.getPrompt({ name: 'translator', arguments: { language: 'French' } })).rejects.toThrow(
      /text/,
    );
    await mcp.close();
  });

  it('offers the prompts as tools (input schema from the variables) and search_context; a call is a generation of source mcp', async () => {
    const mcp = await connect(await keyOf('runner'));
    const { tools } = await mcp.listTools();
    const translator = tools.find((tool) => tool.name === 'translator');
    expect(translator?.inputSchema).toEqual({
      type: 'object',
      properties: { language: { type: 'string' }, text: { type: 'string' } },
      required: ['language', 'text'],
      additionalProperties: false,
    });
    expect(tools.map((tool) => tool.name)).toContain('search_context');

    const result = await mcp.callTool({
      name: 'translator',
      arguments: { language: 'German', text: 'Hello' },
    });
    expect(result.isError).toBeFalsy();
    expect((result.content as { text: string }[])[0]!.text).toContain('Translate: Hello');
    const generation = (result._meta as Record<string, string>)['lectern/data_guid']!;
    const stored = await context.client.get(`/v1/data/${generation}`);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ source: 'mcp', version: 1 });

    // An argument that is not a string is the caller's invalid params: nothing runs.
    const before = (await context.client.get('/v1/data?source=mcp')).body.total_count;
    for (const text of [{ nested: 'object' }, ['a'], 42, null]) {
      const refused = await mcp
        .callTool({ name: 'translator', arguments: { language: 'German', text } })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({
        code: -32602,
        message: expect.stringContaining('"text" must be a string'),
      });
    }
    expect((await context.client.get('/v1/data?source=mcp')).body.total_count).toBe(before);

    const missing = await mcp.callTool({ name: 'translator', arguments: { language: 'German' } });
    expect(missing.isError).toBe(true);
    expect((missing.content as { text: string }[])[0]!.text).toContain('text');

    const found = await mcp.callTool({
      name: 'search_context',
      arguments: { context: 'Handbook', query: 'When are refunds paid?', limit: 1 },
    });
    expect((found.content as { text: string }[]).map((each) => each.text)).toEqual([
      'Refunds are paid within fourteen days of a return.',
    ]);
    const byGuid = await mcp.callTool({
      name: 'search_context',
      arguments: { context: library, query: 'Sundays' },
    });
    expect(JSON.stringify(byGuid.content)).toContain('closed on Sundays');
    const nowhere = await mcp.callTool({
      name: 'search_context',
      arguments: { context: 'Nope', query: 'x' },
    });
    expect(nowhere.isError).toBe(true);
    await mcp.close();
  });

  it('lets a viewer key list and read prompts but not run them', async () => {
    const mcp = await connect(await keyOf('viewer'));
    expect((await mcp.listTools()).tools.length).toBeGreaterThan(0);
    expect((await mcp.listPrompts()).prompts.length).toBeGreaterThan(0);
    const refused = await mcp.callTool({
      name: 'translator',
      arguments: { language: 'German', text: 'Hello' },
    });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]!.text).toContain('not run');
    await mcp.close();
  });

  it('offers one environment with ?environment=', async () => {
    const mcp = await connect(context.client.apiKey, '?environment=staging');
    const { prompts } = await mcp.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['staged-only']);
    const result = await mcp.callTool({ name: 'staged-only', arguments: { name: 'Ada' } });
    expect((result.content as { text: string }[])[0]!.text).toContain('Hi Ada');
    const elsewhere = await mcp.callTool({ name: 'translator', arguments: { language: 'x', text: 'y' } });
    expect(elsewhere.isError).toBe(true);
    await mcp.close();
  });
});
