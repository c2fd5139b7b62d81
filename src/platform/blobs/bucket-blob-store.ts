import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { BucketConfig } from '../../config.js';
import { assertBlobKey, type BlobStore } from './blob-store.js';

/**
 * Blobs as objects of an S3-compatible bucket (docs/architecture.md#platform-parts), for deployments that keep file bytes
 * out of the database. Every node names the same bucket, so a file uploaded through one node is
 * served by any other, under the signed URL any node can verify (same LECTERN_SECRET).
 */
export function createBucketBlobStore(
  bucket: BucketConfig,
): BlobStore & { ping(): Promise<void>; close(): void } {
  const client = new S3Client({
    region: bucket.region,
    ...(bucket.endpoint && { endpoint: bucket.endpoint }),
    ...(bucket.credentials && { credentials: bucket.credentials }),
    forcePathStyle: bucket.forcePathStyle,
    // The SDK waits for ever by default: a bucket that stops answering must fail the request (and
    // /readyz), not hold it.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  });
  const Bucket = bucket.name;
  return {
    async put(key, data) {
      assertBlobKey(key);
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: data, ContentLength: data.length }));
    },
    async get(key) {
      assertBlobKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (error) {
        // Some S3-compatible services answer a bare 404 rather than the NoSuchKey code.
        if (
          error instanceof NoSuchKey ||
          (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
        ) {
          return undefined;
        }
        throw error;
      }
    },
    async delete(key) {
      assertBlobKey(key);
      // Deleting an object that is not there succeeds, as it does in the other stores.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async ping() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    close() {
      client.destroy();
    },
  };
}
