import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocx } from '../helpers/documents.js';
import { type LocalBucket, startLocalBucket } from '../helpers/s3-bucket.js';
import { eventually, startTestApp, useTestWorkspace } from '../helpers/test-app.js';

// Files in an S3-compatible bucket (S3_BUCKET …): the bytes go to the bucket, not the database or
// the data directory, and everything that reads files reads them from there.
let bucket: LocalBucket;
beforeAll(async () => {
  bucket = await startLocalBucket();
});
afterAll(() => bucket.close());
// Its own job queue: on PostgreSQL another file's worker would read this file's uploads from its own store.
const context = useTestWorkspace(() => bucket.environment, { ownJobQueue: true, startJobs: true });

const pathOf = (url: string) => `${new URL(url).pathname}${new URL(url).search}`;

async function objectKeys(): Promise<string[]> {
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: bucket.environment.S3_ENDPOINT,
    forcePathStyle: true,
    credentials: {
      accessKeyId: bucket.environment.S3_ACCESS_KEY_ID!,
      secretAccessKey: bucket.environment.S3_SECRET_ACCESS_KEY!,
    },
  });
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket.environment.S3_BUCKET }));
    return (listed.Contents ?? []).map((object) => object.Key!);
  } finally {
    client.destroy();
  }
}

describe('files in an S3-compatible bucket', () => {
  it('stores an upload as an object of the bucket and serves it through the signed URL', async () => {
    const bytes = Buffer.from('Bytes that live in a bucket.');
    const uploaded = await context.client.post('/v1/files/upload', { data: bytes.toString('base64') });
    expect(uploaded.status).toBe(200);
    const id = new URL(uploaded.body.url).pathname.split('/').pop()!;
    expect(
      (await objectKeys()).filter((key) => key.startsWith('files/') && key.endsWith(`/${id}`)),
    ).toHaveLength(1);
    const fetched = await context.test.app.inject({ method: 'GET', url: pathOf(uploaded.body.url) });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.rawPayload.equals(bytes)).toBe(true);
  });

  it('indexes an uploaded DOCX whose bytes the job worker reads from the bucket', async () => {
    const docx = buildDocx(['The lighthouse keeper logs every passing ship.']);
    const uploaded = await context.client.post('/v1/files/upload', { data: docx.toString('base64') });
    const library = (await context.client.post('/v1/contexts', { name: 'Bucket', description: 'files' })).body
      .guid;
    const added = await context.client.post(`/v1/contexts/${library}/add_files`, {
      files: [uploaded.body.url],
    });
    expect(added.status).toBe(200);
    const source = await eventually(async () => {
      const answer = await context.client.get(
        `/v1/contexts/${library}/context_sources/${added.body.created[0]}`,
      );
      return answer.body.indexing_status === 'INDEXED' ? answer.body : undefined;
    });
    expect(source.indexing_status).toBe('INDEXED');
    const hits = await context.client.post(`/v1/contexts/${library}/search`, { prompt: 'lighthouse ships' });
    expect(hits.body[0].content).toContain('lighthouse keeper');
  });

  it('reports the bucket in /readyz, and a bucket that is missing as not ready', async () => {
    const ready = await context.test.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks.bucket).toBe('ok');

    const misconfigured = await startTestApp({ ...bucket.environment, S3_BUCKET: 'no-such-bucket' });
    try {
      const answer = await misconfigured.app.inject({ method: 'GET', url: '/readyz' });
      expect(answer.statusCode).toBe(503);
      expect(answer.json().checks.bucket).not.toBe('ok');
    } finally {
      await misconfigured.close();
    }
  });
});
