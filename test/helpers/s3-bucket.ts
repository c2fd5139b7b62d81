import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** s3rver's built-in account. It refuses unknown access key ids (it does not verify SigV4 signatures). */
const accessKeyId = 'S3RVER';
const secretAccessKey = 'S3RVER';

export type LocalBucket = {
  /** The S3_* variables that point Lectern at this bucket. */
  environment: Record<string, string>;
  /** Where s3rver keeps the objects, to look behind the store's back. */
  directory: string;
  close(): Promise<void>;
};

/**
 * A local S3-compatible server (s3rver: the S3 REST API over files) and one
 * bucket: the S3 blob store is tested against the protocol, with no cloud account.
 */
export async function startLocalBucket(name = 'lectern-files'): Promise<LocalBucket> {
  const directory = mkdtempSync(path.join(tmpdir(), 'lectern-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name, configs: [] }],
  });
  const address = await server.run();
  return {
    environment: {
      S3_BUCKET: name,
      S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
    },
    directory,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
