import { describe, expect, it } from 'vitest';
import { createAction, createApp, newWorkspace, unknownGuid, useTestWorkspace } from '../helpers/test-app.js';

const context = useTestWorkspace();

describe('sync runs', () => {
  it('renders the template, calls the model and answers with the documented run response', async () => {
    const { client } = context;
    const action = await createAction(client, { prompt: 'Hello {{name}}', system_message: 'Be brief.' });
    const response = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'Ada' } });
    expect(response.status).toBe(200);
    expect(response.body.msg).toBe('Hello Ada');
    expect(response.body.full_prompt_sent).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello Ada' },
    ]);
    expect(response.body.feedback_url).toBe(`http://lectern.test/v1/feedback/${response.body.data_guid}`);
    // Mock usage: 4 input words, 2 output words; 1 and 2 USD per million tokens.
    expect(response.body.cost).toEqual({ input: 0.000004, output: 0.000004, generation: 0.000008 });

    const record = await client.get(`/v1/data/${response.body.data_guid}`);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({
      guid: response.body.data_guid,
      action: action.guid,
      input: { name: 'Ada' },
      output: 'Hello Ada',
      model: 'echo',
      model_provider: 'mock',
      num_input_tokens: 4,
      num_output_tokens: 2,
      environment: 'production',
      version: 1,
      source: 'sync',
      cached: false,
      feedback: [],
    });
    expect(record.body.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('runs an Action by slug', async () => {
    const action = await createAction(context.client, { name: 'Slug runner' });
    const response = await context.client.post(`/v1/actions/${action.slug}/prompt`, { input: 'Grace' });
    expect(response.status).toBe(200);
    expect(response.body.msg).toBe('Hello Grace');
  });
});

describe('input shapes', () => {
  it('fills the only variable from a string input', async () => {
    const action = await createAction(context.client, { prompt: 'Translate: {{text}}' });
    const response = await context.client.post(`/v1/actions/${action.guid}/prompt`, { input: 'bonjour' });
    expect(response.body.msg).toBe('Translate: bonjour');
  });

  it('appends a string input as the user message when the template has no variables', async () => {
    const action = await createAction(context.client, { prompt: null, system_message: 'You are terse.' });
    const response = await context.client.post(`/v1/actions/${action.guid}/prompt`, { input: 'just this' });
    expect(response.body.full_prompt_sent).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'just this' },
    ]);
    expect(response.body.msg).toBe('just this');
  });

  it('refuses a string for a template with two variables, and names a missing variable', async () => {
    const action = await createAction(context.client, { prompt: '{{greeting}}, {{name}}' });
    const ambiguous = await context.client.post(`/v1/actions/${action.guid}/prompt`, { input: 'Ada' });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.message).toMatch(/^input: .*greeting, name/);
    const missing = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { greeting: 'Hi' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('input: missing template variable "name"');
  });

  it('appends an array of messages and then `messages`, keeping every content part type', async () => {
    const action = await createAction(context.client, { prompt: null, system_message: 'Look closely.' });
    const parts = [
      { type: 'text', text: 'What is in these?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
      { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
      { type: 'refusal', refusal: 'no' },
    ];
    const response = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
      input: [{ role: 'user', content: parts }],
      messages: [
        { role: 'assistant', content: 'A cat.' },
        { role: 'user', content: 'And the sound?' },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body.full_prompt_sent).toEqual([
      { role: 'system', content: 'Look closely.' },
      { role: 'user', content: parts },
      { role: 'assistant', content: 'A cat.' },
      { role: 'user', content: 'And the sound?' },
    ]);
    expect(response.body.msg).toBe('And the sound?');
  });

  it('rejects malformed parts with the field named', async () => {
    const action = await createAction(context.client, { prompt: null });
    const cases: [unknown, RegExp][] = [
      [{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }, /body\.input.*image/i],
      [{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'ogg' } }, /body\.input/],
      [{ type: 'input_audio', input_audio: { data: 'not base64!', format: 'mp3' } }, /body\.input/],
      [{ type: 'file', file: { filename: 'a.pdf' } }, /body\.input/],
      [{ type: 'video', video: {} }, /body\.input/],
    ];
    for (const [part, message] of cases) {
      const response = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
        input: [{ role: 'user', content: [part] }],
      });
      expect(response.status, JSON.stringify(part)).toBe(400);
      expect(response.body.message).toMatch(message);
    }
    const missingInput = await context.client.post(`/v1/actions/${action.guid}/prompt`, {});
    expect(missingInput.status).toBe(400);
    expect(missingInput.body.message).toMatch(/body\.input/);
  });

  it('renders SSTI payloads inert', async () => {
    const action = await createAction(context.client, { prompt: 'Echo {{text}}' });
    const payloads = ["{{constructor.constructor('return process')()}}", '{{__proto__}}', '{% raw %}{{7*7}}'];
    for (const payload of payloads) {
      const response = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
        input: { text: payload },
      });
      expect(response.status).toBe(200);
      expect(response.body.msg).toBe(`Echo ${payload}`);
    }
    const protoTemplate = await createAction(context.client, {
      prompt: 'x {{__proto__}} {{text.constructor}}',
    });
    const response = await context.client.post(`/v1/actions/${protoTemplate.guid}/prompt`, {
      input: { text: 'a' },
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/missing template variable/);
    expect(JSON.stringify(response.body)).not.toMatch(/function|process|Object/);
    const walker = await context.client.post('/v1/actions/create', {
      app: action.app,
      name: 'walker',
      model: 'mock/echo',
      prompt: "{{constructor.constructor('return process')()}}",
    });
    expect(walker.status).toBe(400);
    expect(walker.body.message).toMatch(/^prompt: template does not parse/);
  });
});

describe('version resolution', () => {
  it('runs the default environment, a given version or environment, and refuses missing ones', async () => {
    const { client } = context;
    const action = await createAction(client, { prompt: 'v1 {{x}}' });
    await client.put(`/v1/actions/${action.guid}`, { prompt: 'v2 {{x}}' });
    const run = (body: Record<string, unknown>) =>
      client.post(`/v1/actions/${action.guid}/prompt`, { input: { x: 'go' }, ...body });

    expect((await run({})).body.msg).toBe('v1 go');
    expect((await run({ version: 2 })).body.msg).toBe('v2 go');
    await client.post(`/v1/actions/${action.guid}/deploy`, { version: 2, environment: 'staging' });
    const staging = await run({ environment: 'staging' });
    expect(staging.body.msg).toBe('v2 go');
    expect((await client.get(`/v1/data/${staging.body.data_guid}`)).body).toMatchObject({
      environment: 'staging',
      version: 2,
    });

    const noVersion = await run({ version: 9 });
    expect(noVersion.status).toBe(400);
    expect(noVersion.body.message).toBe('version: the Action has no version 9');
    const noEnvironment = await run({ environment: 'qa' });
    expect(noEnvironment.status).toBe(400);
    expect(noEnvironment.body.message).toBe('environment: nothing is deployed to "qa"');
  });

  it('answers 404 for an unknown Action or another workspace’s, and 400 for a disabled one', async () => {
    const action = await createAction(context.client);
    const other = await newWorkspace(context.test);
    expect((await other.post(`/v1/actions/${action.guid}/prompt`, { input: 'x' })).status).toBe(404);
    expect((await context.client.post(`/v1/actions/${unknownGuid}/prompt`, { input: 'x' })).status).toBe(404);
    await context.client.post(`/v1/actions/${action.guid}/disable`);
    const disabled = await context.client.post(`/v1/actions/${action.guid}/prompt`, { input: 'x' });
    expect(disabled.status).toBe(400);
  });
});

describe('run options', () => {
  it('validates the metadata filter rule and stores the filter and extUserId', async () => {
    const action = await createAction(context.client);
    const url = `/v1/actions/${action.guid}/prompt`;
    for (const metadata of [{ nested: { a: 1 } }, { empty: [] }, { nothing: null }, { 'bad key': 1 }]) {
      const response = await context.client.post(url, { input: 'x', metadata });
      expect(response.status, JSON.stringify(metadata)).toBe(400);
      expect(response.body.message).toMatch(/body\.metadata\./);
    }
    const tooMany = await context.client.post(url, { input: 'x', metadata: { tags: Array(101).fill('a') } });
    expect(tooMany.status).toBe(400);
    const ok = await context.client.post(url, {
      input: 'x',
      metadata: { topic: 'billing', year: 2024, open: true, tags: ['a', 'b'] },
      filter: 'legacy = 1',
      extUserId: 'user-42',
    });
    expect(ok.status).toBe(200);
    const record = await context.client.get(`/v1/data/${ok.body.data_guid}`);
    expect(record.body.metadata).toEqual({ topic: 'billing', year: 2024, open: true, tags: ['a', 'b'] });
    expect(record.body.ext_user_id).toBe('user-42');
  });

  it('fails clearly on a provider error and stores nothing', async () => {
    const action = await createAction(context.client, { model: 'mock/error' });
    const response = await context.client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'x' } });
    expect(response.status).toBe(502);
    expect(response.body.error.code).toBe('provider_error');
    expect(response.body.message).toMatch(/mock answered 503.*unavailable/);
    const data = await context.client.get(`/v1/actions/${action.guid}/data`);
    expect(data.body).toEqual([]);
  });

  it('overrides the model with modelOptions, unless the workspace forbids it', async () => {
    const action = await createAction(context.client, { prompt: 'say {{x}}' });
    const url = `/v1/actions/${action.guid}/prompt`;
    const json = await context.client.post(url, { input: { x: 'hi' }, modelOptions: { model: 'json' } });
    expect(json.status).toBe(200);
    expect(JSON.parse(json.body.msg)).toEqual({ echo: 'say hi' });
    const schema = await context.client.post(url, {
      input: { x: 'hi' },
      modelOptions: { provider: 'mock', model: 'json', jsonSchema: { type: 'object' } },
    });
    expect(schema.status).toBe(200);
    const unknown = await context.client.post(url, {
      input: { x: 'hi' },
      modelOptions: { provider: 'nope' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^model: unknown provider "nope"/);

    const locked = await newWorkspace(context.test);
    await context.test.app.services.workspaces.updateSettings(locked.workspaceGuid, {
      allowModelOverrides: false,
    });
    const lockedAction = await createAction(locked, { prompt: 'say {{x}}' });
    const refused = await locked.post(`/v1/actions/${lockedAction.guid}/prompt`, {
      input: { x: 'hi' },
      modelOptions: { model: 'json' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('modelOptions: this workspace does not allow model overrides');
  });

  it('serves a cache hit as a new record marked cached', async () => {
    const action = await createAction(context.client);
    const url = `/v1/actions/${action.guid}/prompt`;
    const first = await context.client.post(url, { input: { name: 'cache' }, cache: true });
    const second = await context.client.post(url, { input: { name: 'cache' }, cache: true });
    const uncached = await context.client.post(url, { input: { name: 'cache' } });
    expect(second.body.msg).toBe(first.body.msg);
    expect(second.body.data_guid).not.toBe(first.body.data_guid);
    expect(second.body.cost).toEqual({ input: 0, output: 0, generation: 0 });
    expect((await context.client.get(`/v1/data/${first.body.data_guid}`)).body.cached).toBe(false);
    expect((await context.client.get(`/v1/data/${second.body.data_guid}`)).body.cached).toBe(true);
    expect((await context.client.get(`/v1/data/${uncached.body.data_guid}`)).body.cached).toBe(false);
    const other = await context.client.post(url, { input: { name: 'different' }, cache: true });
    expect((await context.client.get(`/v1/data/${other.body.data_guid}`)).body.cached).toBe(false);
  });

  it('stores 50 distinct generations for a burst of 50 concurrent runs', async () => {
    const action = await createAction(context.client);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        context.client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: `n${index}` } }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    expect(new Set(responses.map((response) => response.body.data_guid)).size).toBe(50);
    for (const [index, response] of responses.entries()) expect(response.body.msg).toBe(`Hello n${index}`);
    const data = await context.client.get(`/v1/actions/${action.guid}/data?limit=100`);
    expect(data.headers['x-total-count']).toBe('50');
    expect(new Set(data.body.map((record: { output: string }) => record.output)).size).toBe(50);
  });
});

describe('tools', () => {
  const tools = [
    {
      name: 'lookup',
      description: 'Looks a word up',
      parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
    },
  ];

  it('returns tool calls as the JSON-encoded msg when no server implementation exists', async () => {
    const action = await createAction(context.client, { model: 'mock/tool', prompt: '{{q}}', tools });
    const response = await context.client.post(`/v1/actions/${action.guid}/prompt`, { input: { q: 'kiwi' } });
    expect(response.status).toBe(200);
    const message = JSON.parse(response.body.msg);
    expect(message.content).toBeNull();
    expect(message.tool_calls).toEqual([
      {
        id: expect.any(String),
        type: 'function',
        function: { name: 'lookup', arguments: '{"input":"kiwi"}' },
      },
    ]);
  });

  it('executes tools that have a server implementation, unless told not to', async () => {
    const { client } = context;
    const action = await createAction(client, { model: 'mock/tool', prompt: '{{q}}', tools });
    context.test.app.services.tools.register(async (workspaceId) =>
      workspaceId === client.workspaceGuid
        ? { implementations: new Map([['lookup', async (input: any) => `definition of ${input.input}`]]) }
        : {},
    );
    const executed = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { q: 'kiwi' } });
    expect(executed.body.msg).toBe('tool said: definition of kiwi');
    const returned = await client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { q: 'kiwi' },
      do_not_execute_tool_calls: true,
    });
    expect(JSON.parse(returned.body.msg).tool_calls[0].function.name).toBe('lookup');
  });
});

describe('older clients and gateway_payload', () => {
  it('runs through the legacy collection route with the Action in the body', async () => {
    const action = await createAction(context.client);
    const response = await context.client.post('/v1/actions/', {
      action: action.guid,
      input: { name: 'legacy' },
      metadata_filter: { topic: 'x' },
      streaming: false,
      async_mode: false,
    });
    expect(response.status).toBe(200);
    expect(response.body.msg).toBe('Hello legacy');
    const bySlug = await context.client.post('/v1/actions', { action: action.slug, input: 'slug' });
    expect(bySlug.body.msg).toBe('Hello slug');
    const missing = await context.client.post('/v1/actions/', { action: unknownGuid, input: 'x' });
    expect(missing.status).toBe(404);
    const badFilter = await context.client.post('/v1/actions/', {
      action: action.guid,
      input: 'x',
      metadata_filter: { nested: { no: 1 } },
    });
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.message).toMatch(/body\.metadata_filter\.nested/);
  });

  it('answers gateway_payload with the rendered request and the keys, marked no-store, without running', async () => {
    const { client } = context;
    const provider = await client.post('/v1/providers', {
      provider: 'openai-compatible',
      url: 'http://127.0.0.1:9/v1',
      key: 'sk-provider-secret',
      nickname: 'local',
    });
    expect(provider.status).toBe(201);
    const action = await createAction(client, {
      model: 'local/llama-3',
      prompt: 'Summarise {{text}}',
      system_message: 'Be short.',
      model_config: { temperature: 0.2, max_response_length: 64, stop: ['END'] },
      tools: [{ name: 'search', parameters: { type: 'object' } }],
    });
    const response = await client.post(`/v1/actions/${action.guid}/gateway_payload`, {
      input: { text: 'this' },
    });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toEqual({
      model: 'llama-3',
      messages: [
        { role: 'system', content: 'Be short.' },
        { role: 'user', content: 'Summarise this' },
      ],
      temperature: 0.2,
      max_tokens: 64,
      stop: ['END'],
      tools: [{ type: 'function', function: { name: 'search', parameters: { type: 'object' } } }],
      headers: {
        Authorization: 'Bearer sk-provider-secret',
        'x-svc-api-key': client.apiKey,
        'x-svc-action-guid': action.guid,
        'x-svc-action-version': '1',
        'x-svc-action-environment': 'production',
      },
    });
    expect((await client.get(`/v1/actions/${action.guid}/data`)).body).toEqual([]);
    const unknownField = await client.post(`/v1/actions/${action.guid}/gateway_payload`, {
      input: { text: 'this' },
      streaming: true,
    });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.message).toMatch(/streaming/);
    expect(context.test.logs.join('\n')).not.toContain('sk-provider-secret');
    expect(context.test.logs.join('\n')).not.toContain(client.apiKey);
  });
});

it('answers every run route with a trailing slash too', async () => {
  const action = await createAction(context.client);
  const response = await context.client.post(`/v1/actions/${action.guid}/prompt/`, { input: 'slash' });
  expect(response.status).toBe(200);
  expect((await context.client.get(`/v1/data/${response.body.data_guid}/`)).status).toBe(200);
  expect((await createApp(context.client)).length).toBe(36);
});
