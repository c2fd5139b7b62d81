import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeProviders, startFakeProviders } from '../helpers/fake-providers.js';
import { type Client, eventually, newWorkspace, useTestWorkspace } from '../helpers/test-app.js';

// The fake providers listen on loopback: the operator allows it, as for a self-hosted model.
// Its embedding jobs must run with this allow-list: on PostgreSQL, in a queue of their own.
const context = useTestWorkspace({ LECTERN_OUTBOUND_ALLOW: '127.0.0.1' }, { ownJobQueue: true });
let fake: FakeProviders;

beforeAll(async () => {
  fake = await startFakeProviders();
  context.test.platform.jobs.start();
});
afterAll(() => fake.close());

const providers = [
  {
    kind: 'openai',
    path: '/openai/v1',
    model: 'text-embedding-3-small',
    header: ['authorization', 'Bearer sk-openai'],
  },
  {
    kind: 'google',
    path: '/google/v1beta',
    model: 'gemini-embedding-001',
    header: ['x-goog-api-key', 'sk-google'],
  },
  {
    kind: 'mistral',
    path: '/mistral/v1',
    model: 'mistral-embed',
    header: ['authorization', 'Bearer sk-mistral'],
  },
  {
    kind: 'openai-compatible',
    path: '/compatible/v1',
    model: 'nomic-embed-text',
    header: ['authorization', 'Bearer sk-openai-compatible'],
  },
] as const;

async function processed(client: Client, library: string) {
  await eventually(async () =>
    (await client.get(`/v1/contexts/${library}`)).body.processed ? true : undefined,
  );
}

describe('provider embedding models per Context', () => {
  it.each(providers)('embeds Documents and queries with $kind through the AI SDK', async (provider) => {
    const client = await newWorkspace(context.test);
    await client.post('/v1/providers', {
      provider: provider.kind,
      key: `sk-${provider.kind}`,
      url: `${fake.url}${provider.path}`,
    });
    const created = await client.post('/v1/contexts', {
      name: 'Provider embedded',
      description: 'x',
      embeddingModel: `${provider.kind}/${provider.model}`,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.embeddingModel).toBe(`${provider.kind}/${provider.model}`);
    const library = created.body.guid;
    for (const content of ['red apples and green pears', 'engines pistons and gears', 'violins and cellos'])
      await client.post(`/v1/contexts/${library}/documents`, { content });
    await processed(client, library);
    const hits = await client.post(`/v1/contexts/${library}/search`, {
      prompt: 'pistons gears',
      mode: 'vector',
    });
    expect(hits.body[0].content).toBe('engines pistons and gears');
    const sent = fake.requests.filter(
      (request) =>
        request.protocol === (provider.kind === 'openai-compatible' ? 'compatible' : provider.kind),
    );
    expect(sent.some((request) => /embed/i.test(request.path))).toBe(true);
    expect(sent.at(-1)?.headers[provider.header[0]]).toBe(provider.header[1]);
  });

  it('uses a rotated provider key for the next query at once', async () => {
    const client = await newWorkspace(context.test);
    const provider = await client.post('/v1/providers', {
      provider: 'openai',
      key: 'sk-before',
      url: `${fake.url}/openai/v1`,
    });
    const library = (
      await client.post('/v1/contexts', {
        name: 'Rotate',
        description: 'x',
        embeddingModel: 'openai/text-embedding-3-small',
      })
    ).body.guid;
    await client.post(`/v1/contexts/${library}/search`, { prompt: 'first query', mode: 'vector' });
    expect(fake.requests.at(-1)?.headers.authorization).toBe('Bearer sk-before');
    await client.put(`/v1/providers/${provider.body.guid}`, { key: 'sk-after' });
    await client.post(`/v1/contexts/${library}/search`, { prompt: 'second query', mode: 'vector' });
    expect(fake.requests.at(-1)?.headers.authorization).toBe('Bearer sk-after');
  });

  it('re-embeds every Document when the embedding model changes', async () => {
    const client = await newWorkspace(context.test);
    await client.post('/v1/providers', { provider: 'openai-compatible', url: `${fake.url}/compatible/v1` });
    const library = (await client.post('/v1/contexts', { name: 'Switch', description: 'x' })).body.guid;
    await client.post(`/v1/contexts/${library}/documents`, { content: 'Seals swim in cold water.' });
    await processed(client, library);
    const before = fake.requests.length;
    const switched = await client.put(`/v1/contexts/${library}`, {
      embeddingModel: 'openai-compatible/nomic-embed-text',
    });
    expect(switched.body.embeddingModel).toBe('openai-compatible/nomic-embed-text');
    await processed(client, library);
    expect(fake.requests.slice(before).some((request) => request.path.endsWith('/embeddings'))).toBe(true);
    const hits = await client.post(`/v1/contexts/${library}/search`, {
      prompt: 'seals water',
      mode: 'vector',
    });
    expect(hits.body[0].content).toBe('Seals swim in cold water.');
    const back = await client.put(`/v1/contexts/${library}`, { embeddingModel: null });
    expect(back.body.embeddingModel).toBe('offline/universal-sentence-encoder-lite');
    await processed(client, library);
    const offline = await client.post(`/v1/contexts/${library}/search`, {
      prompt: 'marine animals swimming',
      mode: 'vector',
    });
    expect(offline.body[0].content).toBe('Seals swim in cold water.');
  });
});

describe('offline embedding models', () => {
  it('embeds with the sentence encoder when a Context names no model, and finds a Document by meaning', async () => {
    const client = await newWorkspace(context.test);
    const created = await client.post('/v1/contexts', { name: 'Default', description: 'x' });
    expect(created.body.embeddingModel).toBe('offline/universal-sentence-encoder-lite');
    await client.post(`/v1/contexts/${created.body.guid}/documents`, {
      content: 'Seals swim in cold water.',
    });
    await client.post(`/v1/contexts/${created.body.guid}/documents`, { content: 'Invoices are due in May.' });
    await processed(client, created.body.guid);
    const hits = await client.post(`/v1/contexts/${created.body.guid}/search`, {
      prompt: 'marine animals swimming',
      mode: 'vector',
    });
    expect(hits.body[0].content).toBe('Seals swim in cold water.');
  });

  it('embeds with the word vectors when a Context names them, also after switching to them', async () => {
    const client = await newWorkspace(context.test);
    const created = await client.post('/v1/contexts', {
      name: 'Fast',
      description: 'x',
      embeddingModel: 'offline/glove-sif-100d',
    });
    expect(created.body.embeddingModel).toBe('offline/glove-sif-100d');
    const library = created.body.guid;
    for (const content of ['Seals swim in cold water.', 'Quarterly revenue grew by four percent.']) {
      await client.post(`/v1/contexts/${library}/documents`, { content });
    }
    await processed(client, library);
    const search = async () =>
      (
        await client.post(`/v1/contexts/${library}/search`, {
          prompt: 'marine animals diving in the ocean',
          mode: 'vector',
        })
      ).body[0].content;
    expect(await search()).toBe('Seals swim in cold water.');
    // To the sentence encoder and back: every Document is embedded again by the named model.
    await client.put(`/v1/contexts/${library}`, {
      embeddingModel: 'offline/universal-sentence-encoder-lite',
    });
    await processed(client, library);
    expect(await search()).toBe('Seals swim in cold water.');
    const back = await client.put(`/v1/contexts/${library}`, { embeddingModel: 'offline/glove-sif-100d' });
    expect(back.body.embeddingModel).toBe('offline/glove-sif-100d');
    await processed(client, library);
    expect(await search()).toBe('Seals swim in cold water.');
  });

  it('refuses an offline model that does not exist, naming the field and both models', async () => {
    const client = await newWorkspace(context.test);
    const refused = await client.post('/v1/contexts', {
      name: 'Unknown',
      description: 'x',
      embeddingModel: 'offline/word2vec',
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('embeddingModel');
    expect(JSON.stringify(refused.body)).toContain('offline/glove-sif-100d');
    expect(JSON.stringify(refused.body)).toContain('offline/universal-sentence-encoder-lite');
  });

  it('migration 0011 pins a Context made under the old default to the sentence encoder that embedded it', async () => {
    const client = await newWorkspace(context.test);
    const library = (await client.post('/v1/contexts', { name: 'Old', description: 'x' })).body.guid;
    const { database } = context.test.platform.database;
    // As the release before stored it: no model named, meaning the sentence encoder of that time.
    await database.execute(sql`UPDATE contexts SET embedding_model = NULL WHERE id = ${library}`);
    const migration = readFileSync(
      new URL('../../drizzle/0011_pin_offline_embedding_model.sql', import.meta.url),
      'utf8',
    );
    await database.execute(sql.raw(migration));
    expect((await client.get(`/v1/contexts/${library}`)).body.embeddingModel).toBe(
      'offline/universal-sentence-encoder-lite',
    );
  });
});
