import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeProviders, type Protocol, startFakeProviders } from '../helpers/fake-providers.js';
import {
  atAddress,
  type Client,
  createAction,
  listen,
  newWorkspace,
  parseEvents,
  useTestWorkspace,
} from '../helpers/test-app.js';

// The fake providers listen on loopback: the operator allows it, as for a self-hosted model.
const context = useTestWorkspace({ LECTERN_OUTBOUND_ALLOW: '127.0.0.1' });
let fake: FakeProviders;
let address: string;

beforeAll(async () => {
  fake = await startFakeProviders();
  address = await listen(context.test);
});
afterAll(() => fake.close());

type AdapterCase = {
  kind: string;
  protocol: Protocol;
  path: string;
  model: string;
  priced: boolean;
  credentialHeader: [string, string];
};

const cases: AdapterCase[] = [
  {
    kind: 'openai',
    protocol: 'openai',
    path: '/openai/v1',
    model: 'gpt-4o-mini',
    priced: true,
    credentialHeader: ['authorization', 'Bearer sk-openai'],
  },
  {
    kind: 'anthropic',
    protocol: 'anthropic',
    path: '/anthropic/v1',
    model: 'claude-sonnet-4-5',
    priced: true,
    credentialHeader: ['x-api-key', 'sk-anthropic'],
  },
  {
    kind: 'google',
    protocol: 'google',
    path: '/google/v1beta',
    model: 'gemini-2.5-flash',
    priced: true,
    credentialHeader: ['x-goog-api-key', 'sk-google'],
  },
  {
    kind: 'mistral',
    protocol: 'mistral',
    path: '/mistral/v1',
    model: 'mistral-large-latest',
    priced: true,
    credentialHeader: ['authorization', 'Bearer sk-mistral'],
  },
  {
    kind: 'groq',
    protocol: 'groq',
    path: '/groq/openai/v1',
    model: 'llama-3.3-70b-versatile',
    priced: true,
    credentialHeader: ['authorization', 'Bearer sk-groq'],
  },
  {
    kind: 'openai-compatible',
    protocol: 'compatible',
    path: '/compatible/v1',
    model: 'local-model',
    priced: false,
    credentialHeader: ['authorization', 'Bearer sk-openai-compatible'],
  },
];

async function setUp(adapter: AdapterCase): Promise<{ client: Client; actionGuid: string }> {
  const client = await newWorkspace(context.test);
  const provider = await client.post('/v1/providers', {
    provider: adapter.kind,
    key: `sk-${adapter.kind}`,
    url: `${fake.url}${adapter.path}`,
  });
  expect(provider.status).toBe(201);
  const action = await createAction(client, {
    model: `${adapter.kind}/${adapter.model}`,
    prompt: '{{text}}',
  });
  return { client, actionGuid: action.guid };
}

function requestsFor(protocol: Protocol, marker: string) {
  return fake.requests.filter(
    (request) => request.protocol === protocol && JSON.stringify(request.body).includes(marker),
  );
}

describe.each(cases)('the $kind adapter against its wire protocol', (adapter) => {
  it('runs synchronously with the credential, usage and cost', async () => {
    const { client, actionGuid } = await setUp(adapter);
    const marker = `sync-${adapter.kind}`;
    const response = await client.post(`/v1/actions/${actionGuid}/prompt`, {
      input: { text: `Hello ${marker}` },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.msg).toBe(`reply: Hello ${marker}`);
    if (adapter.priced) expect(response.body.cost.generation).toBeGreaterThan(0);
    else expect(response.body.cost).toBeUndefined();
    const [sent] = requestsFor(adapter.protocol, marker);
    expect(sent?.headers[adapter.credentialHeader[0]]).toBe(adapter.credentialHeader[1]);
    const record = await client.get(`/v1/data/${response.body.data_guid}`);
    expect(record.body).toMatchObject({
      model: adapter.model,
      model_provider: adapter.kind,
      num_input_tokens: 7,
      num_output_tokens: 3,
    });
  });

  it('streams tokens through the stream URL and stores their concatenation', async () => {
    const { client, actionGuid } = await setUp(adapter);
    const marker = `stream-${adapter.kind}`;
    const response = await client.post(`/v1/actions/${actionGuid}/prompt`, {
      input: { text: `Stream ${marker} please` },
      streaming: true,
    });
    expect(response.status).toBe(200);
    const body = await (await fetch(atAddress(response.body.streaming_url, address))).text();
    const events = parseEvents(body);
    expect(events.at(-1)).toMatchObject({ data: 'END_STREAM' });
    const tokens = events
      .filter((event) => event.data.startsWith('{'))
      .map((event) => JSON.parse(event.data).token);
    expect(tokens.join('')).toBe(`reply: Stream ${marker} please`);
    // The adapter streamed several tokens: END_STREAM's id counts the events before it, merged or not.
    expect(Number(events.at(-1)!.id)).toBeGreaterThan(2);
    const record = await client.get(`/v1/data/${response.body.data_guid}`);
    expect(record.body.output).toBe(tokens.join(''));
  });

  it('fails a provider 400 at once, without retrying', async () => {
    const { client, actionGuid } = await setUp(adapter);
    const marker = `FAIL400-${adapter.kind}`;
    const response = await client.post(`/v1/actions/${actionGuid}/prompt`, { input: { text: marker } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('provider_error');
    expect(response.body.message).toContain(`${adapter.kind} answered 400`);
    expect(requestsFor(adapter.protocol, marker)).toHaveLength(1);
  });

  it('retries a 429 and succeeds; with num_retries 0 it answers 429', async () => {
    const { client, actionGuid } = await setUp(adapter);
    const marker = `RATE429-${adapter.kind}`;
    const response = await client.post(`/v1/actions/${actionGuid}/prompt`, { input: { text: marker } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(requestsFor(adapter.protocol, marker)).toHaveLength(2);

    await client.put(`/v1/actions/${actionGuid}`, { model_config: { num_retries: 0 } });
    const strict = await client.post(`/v1/actions/${actionGuid}/prompt`, {
      input: { text: `${marker}-strict` },
      version: 2,
    });
    expect(strict.status).toBe(429);
    expect(requestsFor(adapter.protocol, `${marker}-strict`)).toHaveLength(1);
  });
});

describe('provider request options', () => {
  it('passes store and model_config to OpenAI, and makes no provider call on a cache hit', async () => {
    const adapter = cases[0]!;
    const { client, actionGuid } = await setUp(adapter);
    await client.put(`/v1/actions/${actionGuid}`, {
      model_config: { temperature: 0.3, max_response_length: 50, stop: ['END'], seed: 7 },
    });
    const marker = 'options-openai';
    const run = () =>
      client.post(`/v1/actions/${actionGuid}/prompt`, {
        input: { text: marker },
        version: 2,
        store: true,
        cache: true,
      });
    expect((await run()).status).toBe(200);
    const cached = await run();
    expect(cached.status).toBe(200);
    const sent = requestsFor('openai', marker);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({
      store: true,
      temperature: 0.3,
      max_tokens: 50,
      stop: ['END'],
      seed: 7,
    });
    expect((await client.get(`/v1/data/${cached.body.data_guid}`)).body.cached).toBe(true);
  });

  it('sends a JSON schema as the response format', async () => {
    const adapter = cases[0]!;
    const { client, actionGuid } = await setUp(adapter);
    const marker = 'schema-openai';
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const response = await client.post(`/v1/actions/${actionGuid}/prompt`, {
      input: { text: marker },
      modelOptions: { jsonSchema: schema },
    });
    expect(response.status).toBe(200);
    const [sent] = requestsFor('openai', marker);
    expect(sent!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { schema } });
  });
});
