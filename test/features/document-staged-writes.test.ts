import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDocumentRepository } from '../../src/features/knowledge/documents/repository.js';
import { rowsOf } from '../../src/platform/database/connection.js';
import { prose } from '../helpers/documents.js';
import { eventually, useTestWorkspace } from '../helpers/test-app.js';

// A Document of more than one slice is staged a transaction a slice under a row of
// `document_writes`, invisible until that row is deleted (one short statement publishes it).
const context = useTestWorkspace();

beforeAll(() => context.test.platform.jobs.start());

async function one<Row>(statement: ReturnType<typeof sql>): Promise<Row> {
  return rowsOf<Row>(await context.test.platform.database.database.execute(statement))[0]!;
}

describe('large Document writes', () => {
  it('hides a write’s chunks until it publishes, and removes a write whose process died, postings and statistics included', async () => {
    const { client } = context;
    const library = (await client.post('/v1/contexts', { name: 'Staged', description: 'x' })).body.guid;
    const repository = createDocumentRepository(context.test.platform.database.database);
    // A write that staged 40 chunks and then lost its process: nothing published them.
    const workspaceId = (
      await one<{ id: string }>(sql`SELECT workspace_id AS id FROM contexts WHERE id = ${library}`)
    ).id;
    const writeId = await repository.beginWrite(workspaceId, library);
    const staged = Array.from({ length: 40 }, (_, index) => ({
      id: randomUUID(),
      content: `Chunk ${index} of the zebraquartz manual.`,
      filter: null,
      metadata: {},
    }));
    await repository.stage(workspaceId, library, null, staged, writeId);

    // No read sees them: not the list, not one by its id, not a search.
    expect((await client.get(`/v1/contexts/${library}/documents`)).body.total_count).toBe(0);
    expect((await client.get(`/v1/contexts/${library}/documents/${staged[0]!.id}`)).status).toBe(404);
    const search = await client.post(`/v1/contexts/${library}/search`, {
      prompt: 'zebraquartz',
      mode: 'lexical',
    });
    expect(search.body).toEqual([]);

    const postings = await one<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM document_terms WHERE context_id = ${library} AND term = 'zebraquartz'`,
    );
    expect(postings.count).toBe(40);

    // An hour and more later, the next large write to the Context removes them first.
    await context.test.platform.database.database.execute(
      sql`UPDATE document_writes SET created_at = now() - interval '2 hours' WHERE id = ${writeId}`,
    );
    const added = await client.post(`/v1/contexts/${library}/documents`, { content: prose(40_000) });
    expect(added.status).toBe(200);
    expect(added.body.docs.length).toBeGreaterThan(16);

    const left = await one<{ chunks: number; writes: number }>(sql`
      SELECT (SELECT count(*)::int FROM documents WHERE write_id = ${writeId}) AS chunks,
             (SELECT count(*)::int FROM document_writes WHERE context_id = ${library}) AS writes`);
    expect(left).toEqual({ chunks: 0, writes: 0 });
    // The Context's BM25 statistics count exactly the Documents it shows.
    const listed = (await client.get(`/v1/contexts/${library}/documents`)).body.total_count;
    expect(listed).toBe(added.body.docs.length);
    const statistics = await one<{ documents: number; terms: number; postings: number }>(sql`
      SELECT c.document_count AS documents,
             (SELECT coalesce(sum(t.document_frequency), 0)::int FROM context_terms t WHERE t.context_id = c.id AND t.term = 'zebraquartz') AS terms,
             (SELECT count(*)::int FROM document_terms p WHERE p.context_id = c.id AND p.term = 'zebraquartz') AS postings
      FROM contexts c WHERE c.id = ${library}`);
    expect(statistics).toEqual({ documents: listed, terms: 0, postings: 0 });
  });

  it('publishes a large Document whole, and stops probing its write once its chunks are embedded', {
    timeout: 60_000,
  }, async () => {
    const { client } = context;
    // The word vectors embed it in a moment: the sentence encoder's pace is bulk work's, and not what
    // this test is about (it yields to the other test files' work, platform/thread-priority.ts).
    const library = (
      await client.post('/v1/contexts', {
        name: 'Published',
        description: 'x',
        embeddingModel: 'offline/glove-sif-100d',
      })
    ).body.guid;
    const added = await client.post(`/v1/contexts/${library}/documents`, { content: prose(40_000) });
    expect(added.status).toBe(200);
    expect((await client.get(`/v1/contexts/${library}/documents`)).body.total_count).toBe(
      added.body.docs.length,
    );
    expect(
      await one<{ writes: number }>(
        sql`SELECT count(*)::int AS writes FROM document_writes WHERE context_id = ${library}`,
      ),
    ).toEqual({ writes: 0 });
    // Its embedding is a bulk job: in the whole suite it takes its turn with the other files' bulk
    // work on a shared queue (PostgreSQL + Redis) and runs niced, so it may take longer than 10 s.
    await eventually(
      async () => ((await client.get(`/v1/contexts/${library}`)).body.processed ? true : undefined),
      50_000,
    );
    const probed = await one<{ chunks: number }>(
      sql`SELECT count(*)::int AS chunks FROM documents WHERE context_id = ${library} AND write_id IS NOT NULL`,
    );
    expect(probed.chunks).toBe(0);
  });
});
