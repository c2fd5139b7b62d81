import { eq } from 'drizzle-orm';
import type { Database } from '../database/connection.js';
import { assertBlobKey, type BlobStore } from './blob-store.js';
import { blobs } from './tables.js';

/**
 * Blobs as `bytea` rows (docs/architecture.md#platform-parts): with `DATABASE_URL` and no bucket, a file uploaded through one
 * node is served by any other. Files are capped by LECTERN_FILE_LIMIT_BYTES, well within a row's 1 GB.
 */
export function createDatabaseBlobStore(database: Database): BlobStore {
  return {
    async put(key, data) {
      assertBlobKey(key);
      await database
        .insert(blobs)
        .values({ key, data })
        .onConflictDoUpdate({ target: blobs.key, set: { data } });
    },
    async get(key) {
      assertBlobKey(key);
      const [row] = await database.select({ data: blobs.data }).from(blobs).where(eq(blobs.key, key));
      return row?.data;
    },
    async delete(key) {
      assertBlobKey(key);
      await database.delete(blobs).where(eq(blobs.key, key));
    },
  };
}
