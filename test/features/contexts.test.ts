import { describe, expect, it } from 'vitest';
import { eventually, newWorkspace, unknownGuid, useTestWorkspace } from '../helpers/test-app.js';

// Its Documents must stay unembedded until it starts the worker.
const context = useTestWorkspace({}, { ownJobQueue: true });

async function createContext(fields: Record<string, unknown> = {}) {
  const created = await context.client.post('/v1/contexts', {
    name: 'Library',
    description: 'Test documents',
    ...fields,
  });
  expect(created.status).toBe(201);
  return created.body;
}

describe('Contexts', () => {
  it('creates a Context with documented defaults and reads, lists, updates and deletes it', async () => {
    const { client } = context;
    const created = await createContext({ responseLength: 300 });
    expect(created).toMatchObject({
      guid: expect.any(String),
      name: 'Library',
      description: 'Test documents',
      processed: true,
      metadata: null,
      responseLength: 300,
      splitterConfig: { splitter: 'sentence', chunkSize: 1024, chunkOverlap: 128 },
      embeddingModel: 'offline/universal-sentence-encoder-lite',
      createdById: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const custom = await createContext({
      splitterConfig: { splitter: 'token', chunkSize: 200, chunkOverlap: 20 },
    });
    expect(custom.splitterConfig).toEqual({ splitter: 'token', chunkSize: 200, chunkOverlap: 20 });

    expect((await client.get(`/v1/contexts/${created.guid}`)).body.guid).toBe(created.guid);
    const list = await client.get('/v1/contexts?limit=1');
    expect(list.body).toMatchObject({ total_count: 2, has_next_page: true });
    expect(list.body.data).toHaveLength(1);

    const updated = await client.put(`/v1/contexts/${created.guid}`, {
      name: 'Renamed',
      metadata: { team: 'docs' },
    });
    expect(updated.body).toMatchObject({ name: 'Renamed', metadata: { team: 'docs' }, responseLength: 300 });

    expect((await client.delete(`/v1/contexts/${created.guid}`)).body).toEqual({ status: 'success' });
    expect((await client.get(`/v1/contexts/${created.guid}`)).status).toBe(404);
    expect((await client.delete(`/v1/contexts/${created.guid}`)).status).toBe(404);
  });

  it('accepts only the documented creation fields and checks the splitter configuration', async () => {
    const { client } = context;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ description: 'no name' }, /body\.name/],
      [{ name: 'no description' }, /body\.description/],
      [{ name: 'x', description: 'y', type: 'docs' }, /type/],
      [{ name: 'x', description: 'y', loaderId: 'file' }, /loaderId/],
      [{ name: 'x', description: 'y', files: [] }, /files/],
      [{ name: 'x', description: 'y', meta_data: {} }, /meta_data/],
      [{ name: 'x', description: 'y', responseLength: 'long' }, /responseLength/],
      [
        { name: 'x', description: 'y', splitterConfig: { chunkSize: 100, chunkOverlap: 100 } },
        /splitterConfig\.chunkOverlap/,
      ],
      [
        { name: 'x', description: 'y', splitterConfig: { splitter: 'paragraph' } },
        /splitterConfig\.splitter/,
      ],
      [{ name: 'x', description: 'y', splitterConfig: { chunkSize: 0 } }, /splitterConfig\.chunkSize/],
      [{ name: 'x', description: 'y', embeddingModel: 'anthropic/claude' }, /embeddingModel/],
      [{ name: 'x', description: 'y', embeddingModel: 'nowhere/model' }, /embeddingModel/],
    ];
    const before = (await client.get('/v1/contexts')).body.total_count;
    for (const [body, message] of cases) {
      const answer = await client.post('/v1/contexts', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
    expect((await client.get('/v1/contexts')).body.total_count).toBe(before);
    expect((await client.get('/v1/contexts/not-a-guid')).status).toBe(400);
    expect((await client.get(`/v1/contexts/${unknownGuid}`)).status).toBe(404);
  });

  it("never shows another workspace's Context or Documents", async () => {
    const library = await createContext();
    const added = await context.client.post(`/v1/contexts/${library.guid}/documents`, {
      content: 'Private text.',
    });
    const other = await newWorkspace(context.test);
    const document = `/v1/contexts/${library.guid}/documents/${added.body.docs[0]}`;
    for (const [method, url] of [
      ['GET', `/v1/contexts/${library.guid}`],
      ['PUT', `/v1/contexts/${library.guid}`],
      ['DELETE', `/v1/contexts/${library.guid}`],
      ['GET', `/v1/contexts/${library.guid}/documents`],
      ['POST', `/v1/contexts/${library.guid}/documents`],
      ['POST', `/v1/contexts/${library.guid}/search`],
      ['POST', `/v1/contexts/${library.guid}/prompt`],
      ['GET', document],
      ['PUT', document],
      ['DELETE', document],
      ['POST', `${document}/embed`],
    ] as const) {
      const body =
        method === 'GET' || method === 'DELETE'
          ? undefined
          : url.endsWith('search') || url.endsWith('prompt')
            ? { prompt: 'x' }
            : url.endsWith('embed')
              ? {}
              : url === `/v1/contexts/${library.guid}`
                ? { name: 'x' }
                : { content: 'x' };
      const answer = await other.request(method, url, body);
      expect(answer.status, `${method} ${url}`).toBe(404);
    }
    expect((await other.get('/v1/contexts')).body.total_count).toBe(0);
    expect((await context.client.get(document)).status).toBe(200);
  });
});

describe('Documents', () => {
  it('splits added content into Documents and lists, reads, updates and deletes them', async () => {
    const { client, test } = context;
    const library = await createContext({
      splitterConfig: { splitter: 'sentence', chunkSize: 60, chunkOverlap: 0 },
    });
    const base = `/v1/contexts/${library.guid}/documents`;
    const added = await client.post(base, {
      content: 'Cats sleep most of the day. Dogs like long walks in the park. Parrots can learn many words.',
      filter: 'animals',
      metadata: { kind: 'pets' },
    });
    expect(added.status).toBe(200);
    expect(added.body.status).toBe('success');
    expect(added.body.docs).toHaveLength(3);
    const viaText = await client.post(base, { text: 'Alias text field.' });
    expect(viaText.body.docs).toHaveLength(1);
    const empty = await client.post(base, { content: '' });
    expect(empty.body.docs).toHaveLength(1);
    expect((await client.post(base, { filter: 'x' })).status).toBe(400);
    expect((await client.post(base, { content: 'x', metadata: 'x' })).status).toBe(400);

    const list = await client.get(`${base}?limit=2`);
    expect(list.body).toMatchObject({ total_count: 5, has_next_page: true });
    expect(list.body.data[0]).toMatchObject({ embedding: [], metadata: expect.any(Object) });
    const queried = await client.get(`${base}?query=${encodeURIComponent('Dogs like')}`);
    expect(queried.body.data.map((document: { content: string }) => document.content)).toEqual([
      'Dogs like long walks in the park.',
    ]);

    const first = await client.get(`${base}/${added.body.docs[0]}`);
    expect(first.body).toMatchObject({
      guid: added.body.docs[0],
      content: 'Cats sleep most of the day.',
      filter: 'animals',
      metadata: { kind: 'pets' },
      embedding: [],
    });

    const otherLibrary = await createContext();
    const crossContext = await client.get(
      `/v1/contexts/${otherLibrary.guid}/documents/${added.body.docs[0]}`,
    );
    expect(crossContext.status).toBe(404);
    expect(crossContext.body.message).toBe('Document not found');

    const updated = await client.put(`${base}/${added.body.docs[0]}`, {
      content: 'Cats hunt mice at night.',
      metadata: { kind: 'cats' },
    });
    expect(updated.body).toMatchObject({ content: 'Cats hunt mice at night.', metadata: { kind: 'cats' } });
    expect((await client.put(`${base}/${added.body.docs[0]}`, { metadata: {} })).status).toBe(400);

    // Not embedded yet (no worker runs): found by its words at once, not by meaning.
    expect((await client.get(`/v1/contexts/${library.guid}`)).body.processed).toBe(false);
    const early = await client.post(`/v1/contexts/${library.guid}/search`, { prompt: 'parrots words' });
    expect(early.body[0].content).toBe('Parrots can learn many words.');
    const earlyVector = await client.post(`/v1/contexts/${library.guid}/search`, {
      prompt: 'parrots words',
      mode: 'vector',
    });
    expect(earlyVector.body).toEqual([]);

    test.platform.jobs.start();
    await eventually(async () =>
      (await client.get(`/v1/contexts/${library.guid}`)).body.processed ? true : undefined,
    );
    expect((await client.get(`${base}/${added.body.docs[0]}`)).body.embedding_status).toBe('embedded');
    expect((await client.post(`${base}/${added.body.docs[0]}/embed`)).body).toEqual({ status: 'success' });
    await eventually(async () =>
      (await client.get(`/v1/contexts/${library.guid}`)).body.processed ? true : undefined,
    );

    expect((await client.delete(`${base}/${added.body.docs[1]}`)).body).toEqual({ status: 'success' });
    expect((await client.get(`${base}/${added.body.docs[1]}`)).status).toBe(404);
    expect((await client.request('DELETE', `${base}/`, { filter: 'animals' })).body).toEqual({
      status: 'success',
    });
    expect((await client.get(base)).body.total_count).toBe(2);
    expect((await client.request('DELETE', base)).body).toEqual({ status: 'success' });
    expect((await client.get(base)).body.total_count).toBe(0);
  });
});
