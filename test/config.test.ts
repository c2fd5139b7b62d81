import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseLocationOf, loadConfig } from '../src/config.js';
import { openDatabase, rowsOf } from '../src/platform/database/connection.js';

describe('bucket configuration (S3_*)', () => {
  it('has no bucket unless S3_BUCKET is set, and refuses other S3_ variables without it', () => {
    expect(loadConfig({}).bucket).toBeUndefined();
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000', S3_REGION: 'eu-west-1' })).toThrow(
      'S3_BUCKET is required with S3_ENDPOINT, S3_REGION',
    );
  });

  it('reads a self-hosted bucket with path-style addressing and its key pair', () => {
    expect(
      loadConfig({
        S3_BUCKET: 'files',
        S3_ENDPOINT: 'http://minio:9000',
        S3_ACCESS_KEY_ID: 'access',
        S3_SECRET_ACCESS_KEY: 'secret',
      }).bucket,
    ).toEqual({
      name: 'files',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      credentials: { accessKeyId: 'access', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
  });

  it('leaves AWS itself to virtual-hosted addressing and the SDK credential chain', () => {
    expect(loadConfig({ S3_BUCKET: 'files', S3_REGION: 'eu-central-1' }).bucket).toEqual({
      name: 'files',
      endpoint: undefined,
      region: 'eu-central-1',
      forcePathStyle: false,
    });
    expect(loadConfig({ S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'true' }).bucket?.forcePathStyle).toBe(true);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'access' })).toThrow(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together',
    );
    expect(() => loadConfig({ S3_BUCKET: 'files', S3_ENDPOINT: 'not a url' })).toThrow('S3_ENDPOINT');
    expect(() => loadConfig({ S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(
      'S3_FORCE_PATH_STYLE',
    );
  });
});

describe('embedded database memory (LECTERN_PGLITE_SHARED_BUFFERS)', () => {
  it('passes a size on to the embedded database only (32MB unless set), and refuses what is not a size', () => {
    expect(databaseLocationOf(loadConfig({ LECTERN_DATA_DIR: '/data' }))).toEqual({
      dataDirectory: '/data',
      sharedBuffers: '32MB',
    });
    expect(
      databaseLocationOf(loadConfig({ LECTERN_DATA_DIR: '/data', LECTERN_PGLITE_SHARED_BUFFERS: '32MB' })),
    ).toEqual({ dataDirectory: '/data', sharedBuffers: '32MB' });
    expect(
      databaseLocationOf(
        loadConfig({ DATABASE_URL: 'postgres://db/lectern', LECTERN_PGLITE_SHARED_BUFFERS: '32MB' }),
      ),
    ).toEqual({ databaseUrl: 'postgres://db/lectern' });
    expect(() => loadConfig({ LECTERN_PGLITE_SHARED_BUFFERS: 'lots' })).toThrow(
      'LECTERN_PGLITE_SHARED_BUFFERS',
    );
  });

  it('sizes the embedded buffer cache as configured', async () => {
    const handle = await openDatabase({ dataDirectory: 'memory', sharedBuffers: '16MB' }, () => undefined);
    try {
      const [row] = rowsOf<{ shared_buffers: string }>(
        await handle.database.execute(sql`SHOW shared_buffers`),
      );
      expect(row!.shared_buffers).toBe('16MB');
    } finally {
      await handle.close();
    }
  });
});
