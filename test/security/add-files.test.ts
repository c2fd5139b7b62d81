import { describe, expect, it } from 'vitest';
import { useTestWorkspace } from '../helpers/test-app.js';

// Finding 11: add_files checks every URL before it creates anything, and a malformed
// percent-encoding in a file name is a name, not a 500 halfway through the list.

// Its sources' jobs (unreachable URLs) stay in a queue of their own on PostgreSQL.
const context = useTestWorkspace({}, { ownJobQueue: true });

async function library() {
  const created = await context.client.post('/v1/contexts', { name: 'files', description: 'add_files' });
  return created.body.guid as string;
}

const sourcesOf = async (contextId: string) =>
  (await context.client.get(`/v1/contexts/${contextId}/context_sources`)).body as Array<{ name: string }>;

describe('add_files', () => {
  it('creates every source of a list whose names have malformed percent-encodings', async () => {
    const contextId = await library();
    const added = await context.client.post(`/v1/contexts/${contextId}/add_files`, {
      files: ['https://files.example.com/report.txt', 'https://files.example.com/%E0%A4%A%zz.txt'],
    });
    expect(added.status).toBe(200);
    expect(added.body.created).toHaveLength(2);
    expect((await sourcesOf(contextId)).map((source) => source.name).sort()).toEqual([
      '%E0%A4%A%zz.txt',
      'report.txt',
    ]);
  });

  it('refuses the whole list with a 400 naming the bad entry, creating nothing', async () => {
    const contextId = await library();
    const uploaded = await context.client.post('/v1/files/upload', {
      data: Buffer.from('hello').toString('base64'),
    });
    const forged = `${uploaded.body.url.slice(0, -4)}AAAA`;
    for (const files of [
      [uploaded.body.url, forged],
      ['https://files.example.com/a.txt', 'not a url'],
      ['https://files.example.com/a.txt', 'ftp://files.example.com/b.txt'],
    ]) {
      const added = await context.client.post(`/v1/contexts/${contextId}/add_files`, { files });
      expect(added.status, JSON.stringify(files)).toBe(400);
      expect(added.body.message).toMatch(/files\.1/);
    }
    expect(await sourcesOf(contextId)).toEqual([]);
  });
});
