import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { BlobStore } from './blobs/blob-store.js';
import { createDatabaseBlobStore } from './blobs/database-blob-store.js';
import { createFileBlobStore } from './blobs/file-blob-store.js';
import { type DatabaseHandle, type DatabaseLocation, openDatabase } from './database/connection.js';
import { createDatabaseJobQueue } from './jobs/database-job-queue.js';
import type { JobQueue } from './jobs/job-queue.js';
import { createSecretBox, loadOrCreateSecret, type SecretBox } from './secrets.js';
import { createSigner, type Signer } from './signing.js';
import { createMemoryStreamBus } from './streams/memory-stream-bus.js';
import { createRedisStreamBus } from './streams/redis-stream-bus.js';
import type { StreamBus } from './streams/stream-bus.js';

/** The infrastructure every feature builds on, chosen once at start-up (DESIGN.md §1). */
export type Platform = {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  jobs: JobQueue;
  streams: StreamBus;
  blobs: BlobStore;
  signer: Signer;
  secretBox: SecretBox;
  /** `ok` or the failure, for the database and (when configured) Redis. */
  checkReadiness(): Promise<Record<string, string>>;
  close(): Promise<void>;
};

async function check(probe: () => Promise<unknown>): Promise<string> {
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 2 s')), 2_000).unref()),
    ]);
    return 'ok';
  } catch (error) {
    return (error as Error).message;
  }
}

export type PlatformOptions = {
  /** Tests pass an already-open database (a PGlite snapshot or a shared PostgreSQL). */
  database?: DatabaseHandle;
  /** Whether closing the platform also closes the database (false for a database shared by tests). */
  ownsDatabase?: boolean;
};

export async function createPlatform(
  config: Config,
  logger: Logger,
  options: PlatformOptions = {},
): Promise<Platform> {
  const location: DatabaseLocation = config.databaseUrl
    ? { databaseUrl: config.databaseUrl }
    : { dataDirectory: config.dataDirectory };
  const database = options.database ?? (await openDatabase(location, (message) => logger.warn(message)));
  const ownsDatabase = options.ownsDatabase ?? !options.database;
  const secret = loadOrCreateSecret(config.secret, config.dataDirectory);
  const jobs = createDatabaseJobQueue(database.database, logger.child({ component: 'jobs' }), {
    exclusive: database.kind === 'pglite',
  });
  // Scale-out parts by configuration alone (DESIGN.md §1): with Redis a stream URL may be read on any
  // node; with PostgreSQL every node reads the same file bytes.
  const streams = config.redisUrl ? createRedisStreamBus(config.redisUrl) : createMemoryStreamBus();
  const blobs = config.databaseUrl
    ? createDatabaseBlobStore(database.database)
    : createFileBlobStore(path.join(config.dataDirectory, 'files'));
  return {
    config,
    logger,
    database,
    jobs,
    streams,
    blobs,
    signer: createSigner(secret),
    secretBox: createSecretBox(secret),
    async checkReadiness() {
      const [databaseCheck, redisCheck] = await Promise.all([
        check(() => database.database.execute(sql`SELECT 1`)),
        config.redisUrl ? check(() => streams.ping()) : Promise.resolve(undefined),
      ]);
      return { database: databaseCheck, ...(redisCheck && { redis: redisCheck }) };
    },
    async close() {
      await jobs.stop();
      await streams.close();
      if (ownsDatabase) await database.close();
    },
  };
}
