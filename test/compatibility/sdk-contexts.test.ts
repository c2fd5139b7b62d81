import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sdkKinds, useSdkWorkspace } from '../helpers/klu-sdk.js';
import { eventually, temporaryDirectory } from '../helpers/test-app.js';

// Every method of @kluai/core@0.0.46's contexts client, through the SDK against a listening Lectern:
// the singular /v1/context routes, the presigned form upload and the Context Sources it feeds.
// Its own job queue on PostgreSQL: Context Sources read this app's signed URLs (its base URL), which
// another file's worker, with another base URL, would take for outside addresses.
// Each test runs against Klu's own SDK and against Lectern's drop-in client (@lectern/client/klu).
describe.each(sdkKinds)('with the %s SDK', (kind) => {
  const sdk = useSdkWorkspace(() => ({}), { startJobs: true, ownJobQueue: true, kind });
  let folder: string;

  beforeAll(() => {
    folder = temporaryDirectory();
  });

  function file(name: string, text: string) {
    const filePath = path.join(folder, name);
    writeFileSync(filePath, text);
    return { filePath, fileName: name };
  }

  const waitForStatus = (guid: string) =>
    eventually(
      async () => ((await sdk.klu.contexts.getStatus(guid)) === 'SUCCESS' ? true : undefined),
      30_000,
    );

  describe('contexts', () => {
    it('create with fileData (presign, form upload, Context Sources), getStatus, get, update, delete', async () => {
      const created = await sdk.klu.contexts.create({
        name: 'Handbook',
        description: 'made by the SDK',
        fileData: [file('expenses.txt', 'Expenses are reimbursed within thirty days of the claim.')],
      });
      expect(created).toMatchObject({ name: 'Handbook', description: 'made by the SDK' });
      await waitForStatus(created.guid);
      const sources = await sdk.context.client.get(`/v1/contexts/${created.guid}/context_sources`);
      expect(sources.body).toEqual([expect.objectContaining({ indexing_status: 'INDEXED' })]);
      const hits = await sdk.klu.contexts.search(created.guid, 'when are expenses reimbursed', 0, 3);
      expect(hits[0]?.content).toContain('thirty days');

      expect((await sdk.klu.contexts.get(created.guid)).processed).toBe(true);
      const updated = await sdk.klu.contexts.update(created.guid, { name: 'Team handbook' } as never);
      expect(updated.name).toBe('Team handbook');
      await sdk.klu.contexts.delete(created.guid);
      await expect(sdk.klu.contexts.get(created.guid)).rejects.toThrow(/was not found/);
    });

    it('creates nothing when a file URL is bad', async () => {
      const before = (await sdk.context.client.get('/v1/contexts')).body.total_count;
      const ownUrl = `http://127.0.0.1:${sdk.port}/v1/files/00000000-0000-4000-8000-000000000000?token=1.${'a'.repeat(43)}`;
      const refused = await sdk.context.client.post('/v1/context', {
        name: 'x',
        description: '',
        files: [ownUrl],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toContain('files.0');
      expect((await sdk.context.client.get('/v1/contexts')).body.total_count).toBe(before);
    });

    it('refuses the legacy type, loader and filter with a 400 naming them', async () => {
      for (const field of ['type', 'loader', 'filter']) {
        const refused = await sdk.context.client.post('/v1/context', {
          name: 'x',
          description: '',
          [field]: 'pdf',
        });
        expect(refused.status, field).toBe(400);
        expect(refused.body.message).toContain(field);
      }
    });

    it('getPresignedUrl and uploadFile, then uploadContextFiles answers the Context with its sources', async () => {
      const library = await sdk.klu.contexts.create({ name: 'Uploads', description: '' });
      const presigned = await sdk.klu.contexts.getPresignedUrl('notes.md');
      expect(presigned).toMatchObject({
        url: `http://127.0.0.1:${sdk.port}/v1/files/form-upload`,
        objectUrl: expect.stringMatching(/\/v1\/files\/[0-9a-f-]{36}\?token=/),
        fields: { key: expect.any(String), token: expect.any(String), file_name: 'notes.md' },
      });
      const uploaded = await sdk.klu.contexts.uploadFile(
        file('first.md', '# Lighthouses\n\nThey guide ships at night.'),
      );
      expect(await (await fetch(uploaded)).text()).toContain('guide ships');

      const answered = (await sdk.klu.contexts.uploadContextFiles(library.guid, [
        file('second.txt', 'Bakeries open early in the morning.'),
      ])) as unknown as { guid: string; created: string[] };
      expect(answered.guid).toBe(library.guid);
      expect(answered.created).toHaveLength(1);
      await waitForStatus(library.guid);
      expect((await sdk.klu.contexts.search(library.guid, 'bakeries morning', 0, 1))[0]?.content).toContain(
        'Bakeries',
      );
    });

    it('refuses a used, forged or expired upload form', async () => {
      const presigned = await sdk.context.client.post('/v1/context/presign', { file_name: 'a.txt' });
      const send = (fields: Record<string, string>) => {
        const form = new FormData();
        for (const [name, value] of Object.entries(fields)) form.append(name, value);
        form.append('file', new Blob(['some text']), 'a.txt');
        return fetch(presigned.body.url, { method: 'POST', body: form });
      };
      expect((await send(presigned.body.fields)).status).toBe(204);
      expect((await send(presigned.body.fields)).status).toBe(409);
      expect(
        (await send({ ...presigned.body.fields, token: `${Date.now() + 60_000}.${'a'.repeat(43)}` })).status,
      ).toBe(403);
      const signer = sdk.context.test.platform.signer;
      const expired = signer.sign('file-upload', presigned.body.fields.key, Date.now() - 1);
      expect((await send({ ...presigned.body.fields, token: expired })).status).toBe(403);
      const noFile = await fetch(presigned.body.url, { method: 'POST', body: new FormData() });
      expect(noFile.status).toBe(400);
    });

    it('addDoc with meta_data, listDocs, updateDoc (metadata only), embed, search, prompt, deleteAllDocs', async () => {
      const library = await sdk.klu.contexts.create({ name: 'Docs', description: '' });
      const added = (await sdk.klu.contexts.addDoc(library.guid, {
        content: 'The office closes at six in the evening.',
        metaData: { team: 'facilities' },
      })) as { docs: string[] };
      expect(added.docs).toHaveLength(1);
      const listed = await sdk.klu.contexts.listDocs(library.guid);
      expect(listed).toEqual([
        expect.objectContaining({
          guid: added.docs[0],
          metaData: { team: 'facilities' },
          createdAt: expect.any(String),
        }),
      ]);

      const updated = await sdk.klu.contexts.updateDoc(added.docs[0]!, library.guid, {
        guid: added.docs[0]!,
        embedding: [],
        metaData: { team: 'operations' },
      } as never);
      expect(updated).toMatchObject({
        content: 'The office closes at six in the evening.',
        metaData: { team: 'operations' },
      });

      expect((await sdk.klu.contexts.embed(library.guid)).message).toMatch(/Embedding queued/);
      await waitForStatus(library.guid);
      const hits = await sdk.klu.contexts.search(library.guid, 'when does the office close', 0, 5, '', {
        team: 'operations',
      });
      expect(hits).toHaveLength(1);

      const answer = await sdk.klu.contexts.prompt(library.guid, 'When does the office close?');
      expect(answer).toMatchObject({
        msg: expect.stringContaining('six in the evening'),
        nodes: expect.any(Array),
      });

      await sdk.klu.contexts.deleteAllDocs(library.guid);
      expect(await sdk.klu.contexts.listDocs(library.guid)).toEqual([]);
    });
  });
});
