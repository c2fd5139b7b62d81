import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { contextSources } from '../../src/features/knowledge/context-sources/tables.js';
import { eventually, useTestWorkspace } from '../helpers/test-app.js';

// Finding 7, the other half: a Context Source left PROCESSING after its job is done or gone (a node
// killed during a second run of the same job) is processed again instead of staying PROCESSING.

const context = useTestWorkspace({}, { startJobs: true, ownJobQueue: true });

it('processes a source again once it has been PROCESSING longer than any attempt may run', async () => {
  const { client, test } = context;
  const library = (await client.post('/v1/contexts', { name: 'recovery', description: 'stuck source' })).body
    .guid;
  const uploaded = await client.post('/v1/files/upload', {
    data: Buffer.from('The lighthouse keeper logs every passing ship.').toString('base64'),
  });
  const added = await client.post(`/v1/contexts/${library}/add_files`, { files: [uploaded.body.url] });
  const sourceId = added.body.created[0];
  const statusOf = async () =>
    (await client.get(`/v1/contexts/${library}/context_sources/${sourceId}`)).body.indexing_status as string;
  await eventually(async () => ((await statusOf()) === 'INDEXED' ? true : undefined));

  const database = test.platform.database.database;
  const markProcessing = (since: Date) =>
    database
      .update(contextSources)
      .set({ indexingStatus: 'PROCESSING', updatedAt: since })
      .where(eq(contextSources.id, sourceId));

  // Processing for a minute: an attempt may still be running, so nothing happens.
  await markProcessing(new Date(Date.now() - 60_000));
  expect(await statusOf()).toBe('PROCESSING');

  // Processing for an hour, its job long finished: read, it is dispatched again and indexed.
  await markProcessing(new Date(Date.now() - 60 * 60_000));
  expect(['PENDING', 'PROCESSING', 'INDEXED']).toContain(await statusOf());
  await eventually(async () => ((await statusOf()) === 'INDEXED' ? true : undefined));
  const hits = await client.post(`/v1/contexts/${library}/search`, { prompt: 'lighthouse keeper' });
  expect(hits.body[0].content).toContain('lighthouse keeper');
});
