import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextSources } from '../../src/features/knowledge/context-sources/tables.js';
import { documents } from '../../src/features/knowledge/documents/tables.js';
import { buildDocx, buildPdf } from '../helpers/documents.js';
import { eventually, newWorkspace, unknownGuid, useTestWorkspace } from '../helpers/test-app.js';

// The file server stands for a public host: it listens on 127.0.0.3, the one private address this
// app may fetch from. The "internal" server on 127.0.0.1 must never be reached.
const publicHost = '127.0.0.3';
// Its processing jobs must run under this allow-list, not another test file's configuration.
const context = useTestWorkspace(
  { LECTERN_OUTBOUND_ALLOW: publicHost, LECTERN_FETCH_TIMEOUT_MS: '5000' },
  { ownJobQueue: true },
);

let fileServer: Server;
let internalServer: Server;
let fileBase: string;
let internalBase: string;
let internalHits = 0;

const pdf = buildPdf([
  'Turbine maintenance happens every spring.',
  'Blade inspections use drones and cameras.',
]);
const docx = buildDocx([
  'The quarterly revenue of the bakery grew by twelve percent.',
  'Sourdough sold best.',
]);

function listenOn(server: Server, host: string): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`));
  });
}

beforeAll(async () => {
  internalServer = createServer((_, response) => {
    internalHits += 1;
    response.end('internal secret: the launch codes');
  });
  internalBase = await listenOn(internalServer, '127.0.0.1');
  fileServer = createServer((request, response) => {
    const send = (type: string, body: Buffer | string) => {
      response.setHeader('content-type', type);
      response.end(body);
    };
    if (request.url === '/report.pdf') return send('application/pdf', pdf);
    if (request.url === '/notes.docx') return send('application/octet-stream', docx);
    if (request.url === '/page.html') {
      return send(
        'text/html',
        '<html><body><h1>Glaciers</h1><p>Glaciers carve valleys slowly.</p><script>var x=1</script></body></html>',
      );
    }
    if (request.url === '/redirect') {
      response.statusCode = 302;
      response.setHeader('location', `${internalBase}/secret.txt`);
      return response.end();
    }
    if (request.url === '/image.bin') return send('application/octet-stream', Buffer.from([0, 1, 2, 3, 250]));
    response.statusCode = 404;
    response.end('not found');
  });
  fileBase = await listenOn(fileServer, publicHost);
  context.test.platform.jobs.start();
});

afterAll(async () => {
  fileServer.close();
  internalServer.close();
});

async function createLibrary(name = 'Sources') {
  const created = await context.client.post('/v1/contexts', {
    name,
    description: 'From files',
    splitterConfig: { splitter: 'sentence', chunkSize: 200, chunkOverlap: 0 },
  });
  return created.body.guid as string;
}

async function settled(library: string, sourceGuid: string) {
  return eventually(async () => {
    const source = await context.client.get(`/v1/contexts/${library}/context_sources/${sourceGuid}`);
    return ['INDEXED', 'FAILED'].includes(source.body.indexing_status) ? source.body : undefined;
  }, 20_000);
}

describe('Context Sources', () => {
  it('indexes a PDF from a reachable URL with page numbers, and search finds it', async () => {
    const library = await createLibrary();
    const created = await context.client.post(`/v1/contexts/${library}/context_sources`, {
      url: `${fileBase}/report.pdf`,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      guid: expect.any(String),
      name: 'report.pdf',
      url: `${fileBase}/report.pdf`,
      loader_id: 'file',
      loader_config: [],
      splitter_config: { splitter: 'sentence', chunkSize: 200, chunkOverlap: 0 },
      indexing_status: expect.stringMatching(/PENDING|PROCESSING/),
      indexed_at: null,
    });
    const source = await settled(library, created.body.guid);
    expect(source).toMatchObject({
      indexing_status: 'INDEXED',
      indexed_at: expect.any(String),
      indexing_metadata: { documents: 2, chunks: 2 },
    });
    await eventually(async () =>
      (await context.client.get(`/v1/contexts/${library}`)).body.processed ? true : undefined,
    );
    const hits = await context.client.post(`/v1/contexts/${library}/search`, {
      prompt: 'drone blade inspection',
    });
    expect(hits.body[0]).toMatchObject({
      content: 'Blade inspections use drones and cameras.',
      metadata: { source: created.body.guid, filename: 'report.pdf', page: 2 },
    });
    const listed = await context.client.get(`/v1/contexts/${library}/context_sources`);
    expect(Array.isArray(listed.body)).toBe(true);
    expect(listed.body.map((item: { guid: string }) => item.guid)).toEqual([created.body.guid]);
  });

  it('indexes an uploaded DOCX through its signed URL straight from the blob store, via add_files', async () => {
    const library = await createLibrary();
    const uploaded = await context.client.post('/v1/files/upload', { data: docx.toString('base64') });
    // The signed URL points at http://lectern.test, which no network resolves: it is read from the blob store.
    const added = await context.client.post(`/v1/contexts/${library}/add_files`, {
      files: [uploaded.body.url],
    });
    expect(added.status).toBe(200);
    expect(added.body.created).toHaveLength(1);
    const source = await settled(library, added.body.created[0]);
    expect(source.indexing_status).toBe('INDEXED');
    const hits = await context.client.post(`/v1/contexts/${library}/search`, {
      prompt: 'bakery revenue growth',
    });
    expect(hits.body[0].content).toContain('quarterly revenue of the bakery');
    expect(hits.body[0].metadata).toMatchObject({ source: added.body.created[0] });

    const forged = `${uploaded.body.url.slice(0, -4)}AAAA`;
    expect((await context.client.post(`/v1/contexts/${library}/add_files`, { files: [forged] })).status).toBe(
      400,
    );
    const other = await newWorkspace(context.test);
    const otherLibrary = (await other.post('/v1/contexts', { name: 'x', description: 'y' })).body.guid;
    const stolen = await other.post(`/v1/contexts/${otherLibrary}/context_sources`, {
      url: uploaded.body.url,
    });
    expect(stolen.status).toBe(400);
  });

  it('names a source as asked (an upload keeps its file name), and its Documents carry that name', async () => {
    const library = await createLibrary();
    const uploaded = await context.client.post('/v1/files/upload', { data: docx.toString('base64') });
    const created = await context.client.post(`/v1/contexts/${library}/context_sources`, {
      url: uploaded.body.url,
      name: 'minutes.docx',
    });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('minutes.docx');
    expect((await settled(library, created.body.guid)).indexing_status).toBe('INDEXED');
    const hits = await context.client.post(`/v1/contexts/${library}/search`, { prompt: 'bakery revenue' });
    expect(hits.body[0].metadata).toMatchObject({ source: created.body.guid, filename: 'minutes.docx' });
    const unnamed = await context.client.post(`/v1/contexts/${library}/context_sources`, {
      url: uploaded.body.url,
      name: '',
    });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.message).toContain('name');
  });

  it('keeps exactly one complete set of Documents when a second processing overlaps the first, 50 times', async () => {
    const library = await createLibrary('Overlapping');
    const uploaded = await context.client.post('/v1/files/upload', { data: docx.toString('base64') });
    const { database } = context.test.platform.database;
    const documentsOf = async (source: string) =>
      (await database.select({ id: documents.id }).from(documents).where(eq(documents.sourceId, source)))
        .length;
    // Once processed alone, the file makes this many Documents.
    const single = (
      await context.client.post(`/v1/contexts/${library}/add_files`, { files: [uploaded.body.url] })
    ).body.created[0] as string;
    expect((await settled(library, single)).indexing_status).toBe('INDEXED');
    const expected = await documentsOf(single);
    expect(expected).toBeGreaterThan(0);

    for (let round = 0; round < 50; round += 1) {
      const added = await context.client.post(`/v1/contexts/${library}/add_files`, {
        files: [uploaded.body.url],
      });
      const source = added.body.created[0] as string;
      // At once, before the first processing has ended: a second one is queued beside it.
      const again = await context.client.post(`/v1/context_sources/${source}/process`, {
        contextGuid: library,
      });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      // Both processings have begun, the newer one has settled the source, and the older one's
      // Documents, if it made any, are gone: the newer one's stay (it never removes them), so this
      // count holds from then on. Before, the two removed each other's and the source stayed empty.
      await eventually(async () => {
        const [row] = await database
          .select({ generation: contextSources.generation, status: contextSources.indexingStatus })
          .from(contextSources)
          .where(eq(contextSources.id, source));
        const settledOnce =
          row?.generation === 2 && row.status === 'INDEXED' && (await documentsOf(source)) === expected;
        return settledOnce ? row : undefined;
      }, 20_000);
    }
    const hits = await context.client.post(`/v1/contexts/${library}/search`, { prompt: 'bakery revenue' });
    expect(hits.body.length).toBeGreaterThan(0);
  }, 120_000);

  it('reprocessing replaces the earlier Documents; delete removes them', async () => {
    const library = await createLibrary();
    const created = await context.client.post(`/v1/contexts/${library}/context_sources`, {
      url: `${fileBase}/page.html`,
    });
    await settled(library, created.body.guid);
    const before = await context.client.get(`/v1/contexts/${library}/documents`);
    expect(before.body.data.map((document: { content: string }) => document.content).join(' ')).toContain(
      'Glaciers carve valleys slowly.',
    );
    expect(before.body.data.map((document: { content: string }) => document.content).join(' ')).not.toContain(
      'var x',
    );

    const replaced = await context.client.put(
      `/v1/contexts/${library}/context_sources/${created.body.guid}`,
      {
        name: 'Glacier page',
        splitterConfig: { splitter: 'character', chunkSize: 500, chunkOverlap: 0 },
        loaderConfig: [{ name: 'selector', value: 'body', required: false }],
      },
    );
    expect(replaced.body).toMatchObject({
      name: 'Glacier page',
      splitter_config: { splitter: 'character', chunkSize: 500, chunkOverlap: 0 },
      loader_config: [{ name: 'selector', value: 'body', required: false }],
    });
    for (const body of [
      { splitterConfig: { chunkSize: 100 }, loaderConfig: [] },
      { name: 'x', loaderConfig: [] },
      { name: 'x', splitterConfig: {} },
      { name: 'x', splitterConfig: {}, loaderConfig: [{ name: 'missing value' }] },
      { name: 'x', splitterConfig: { splitter: 'bad' }, loaderConfig: [] },
    ]) {
      const answer = await context.client.put(
        `/v1/contexts/${library}/context_sources/${created.body.guid}`,
        body,
      );
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }

    const processed = await context.client.post(`/v1/context_sources/${created.body.guid}/process`, {
      contextGuid: library,
    });
    expect(processed.body).toEqual({ msg: 'success' });
    await eventually(async () => {
      const documents = await context.client.get(`/v1/contexts/${library}/documents`);
      const ids = documents.body.data.map((document: { guid: string }) => document.guid);
      return ids.length === 1 &&
        !before.body.data.some((document: { guid: string }) => ids.includes(document.guid))
        ? true
        : undefined;
    });
    const wrongContext = await context.client.post(`/v1/context_sources/${created.body.guid}/process`, {
      contextGuid: await createLibrary('Other'),
    });
    expect(wrongContext.status).toBe(404);

    const batch = await context.client.post('/v1/context_sources/process_batch', {
      sources: [created.body.guid, unknownGuid],
    });
    expect(batch.body).toEqual({ msg: 'success' });
    expect((await settled(library, created.body.guid)).indexing_status).toBe('INDEXED');

    const removed = await context.client.delete(
      `/v1/contexts/${library}/context_sources/${created.body.guid}`,
    );
    expect(removed.status).toBe(200);
    expect(
      (await context.client.get(`/v1/contexts/${library}/context_sources/${created.body.guid}`)).status,
    ).toBe(404);
    expect((await context.client.get(`/v1/contexts/${library}/documents`)).body.total_count).toBe(0);
  });

  it('refuses private, loopback, link-local and metadata addresses, and redirects to them', async () => {
    const library = await createLibrary();
    const internalPort = new URL(internalBase).port;
    const refused = [
      `http://127.1:${internalPort}/`,
      `http://0x7f000001:${internalPort}/`,
      `http://[::1]:${internalPort}/`,
      `http://[::ffff:127.0.0.1]:${internalPort}/`,
      `http://localhost:${internalPort}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/file.pdf',
      'http://172.16.0.1/file.pdf',
      'http://192.168.1.1/file.pdf',
      'http://100.64.0.1/file.pdf',
      'http://[fc00::1]/file.pdf',
      `${fileBase}/redirect`,
    ];
    const created: string[] = [];
    for (const url of refused) {
      const answer = await context.client.post(`/v1/contexts/${library}/context_sources`, { url });
      expect(answer.status, url).toBe(201);
      created.push(answer.body.guid);
    }
    for (const [index, guid] of created.entries()) {
      const source = await settled(library, guid);
      expect(source.indexing_status, refused[index]).toBe('FAILED');
      expect(source.indexing_metadata.error, refused[index]).toMatch(/not public/);
    }
    expect(internalHits).toBe(0);
    expect((await context.client.get(`/v1/contexts/${library}/documents`)).body.total_count).toBe(0);
  });

  it('fails clearly on unusable URLs and files', async () => {
    const library = await createLibrary();
    for (const url of ['file:///etc/passwd', 'ftp://example.com/a.pdf', 'not a url', 'gopher://x']) {
      const answer = await context.client.post(`/v1/contexts/${library}/context_sources`, { url });
      expect(answer.status, url).toBe(400);
      expect(answer.body.message).toMatch(/url/);
    }
    const missing = await context.client.post(`/v1/contexts/${library}/context_sources`, {
      url: `${fileBase}/missing.pdf`,
    });
    expect((await settled(library, missing.body.guid)).indexing_metadata.error).toMatch(/404/);
    const binary = await context.client.post(`/v1/contexts/${library}/context_sources`, {
      url: `${fileBase}/image.bin`,
    });
    expect((await settled(library, binary.body.guid)).indexing_metadata.error).toMatch(/not recognised/);
    await eventually(async () =>
      (await context.client.get(`/v1/contexts/${library}`)).body.processed ? true : undefined,
    );
    expect((await context.client.get(`/v1/contexts/${unknownGuid}/context_sources`)).status).toBe(404);
    expect((await context.client.post(`/v1/contexts/${library}/add_files`, { files: [] })).status).toBe(400);
  });
});
