import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, useTestWorkspace } from '../helpers/test-app.js';

// Adds to one Context that arrive together are written as one group (one transaction, one
// embedding job). Each request must still get exactly its own Documents.
const context = useTestWorkspace();

beforeAll(() => context.test.platform.jobs.start());

describe('Document adds written as a group', () => {
  it('gives each of many concurrent adds its own Documents, all stored, searchable and embedded', async () => {
    const { client } = context;
    const library = (await client.post('/v1/contexts', { name: 'Concurrent', description: 'x' })).body.guid;
    const contents = Array.from(
      { length: 24 },
      (_, index) => `Note number ${index}: the walrus${index} sleeps.`,
    );
    const answers = await Promise.all(
      contents.map((content, index) =>
        client.post(`/v1/contexts/${library}/documents`, { content, metadata: { index } }),
      ),
    );
    const guids = answers.map((answer) => {
      expect(answer.status).toBe(200);
      expect(answer.body.docs).toHaveLength(1);
      return answer.body.docs[0] as string;
    });
    expect(new Set(guids).size).toBe(contents.length);
    for (const [index, guid] of guids.entries()) {
      const document = await client.get(`/v1/contexts/${library}/documents/${guid}`);
      expect(document.body).toMatchObject({ content: contents[index], metadata: { index } });
    }
    const listed = await client.get(`/v1/contexts/${library}/documents?limit=100`);
    expect(listed.body.total_count).toBe(contents.length);
    // Lexically searchable at once, each by its own word.
    const hit = await client.post(`/v1/contexts/${library}/search`, { prompt: 'walrus17', mode: 'lexical' });
    expect(hit.body.map((found: { guid: string }) => found.guid)).toEqual([guids[17]]);
    await eventually(async () =>
      (await client.get(`/v1/contexts/${library}`)).body.processed ? true : undefined,
    );
  });

  it('answers 404 to an add for an unknown Context while concurrent adds elsewhere succeed', async () => {
    const { client } = context;
    const library = (await client.post('/v1/contexts', { name: 'Beside', description: 'x' })).body.guid;
    const [missing, ...stored] = await Promise.all([
      client.post(`/v1/contexts/${randomUUID()}/documents`, { content: 'lost' }),
      ...Array.from({ length: 5 }, (_, index) =>
        client.post(`/v1/contexts/${library}/documents`, { content: `kept ${index}` }),
      ),
    ]);
    expect(missing!.status).toBe(404);
    expect(stored.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await client.get(`/v1/contexts/${library}/documents`)).body.total_count).toBe(5);
  });
});
