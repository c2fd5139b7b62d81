import { createHash } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { type Config, databaseLocationOf } from '../config.js';
import {
  type AttemptCounter,
  createMemoryAttemptCounter,
  createRedisAttemptCounter,
} from './attempt-counter.js';
import type { BlobStore } from './blobs/blob-store.js';
import { createDatabaseBlobStore } from './blobs/database-blob-store.js';
import { createFileBlobStore } from './blobs/file-blob-store.js';
import type { Broadcast } from './broadcast/broadcast.js';
import { createMemoryBroadcast } from './broadcast/memory-broadcast.js';
import { prepareDataDirectory } from './data-directory.js';
import { type DatabaseHandle, type DatabaseLocation, openDatabase } from './database/connection.js';
import type { StartedEmbeddedDatabase } from './database/embedded-start.js';
import { createTransactionScope, type TransactionScope } from './database/transaction-scope.js';
import { createDatabaseJobQueue } from './jobs/database-job-queue.js';
import type { JobQueue } from './jobs/job-queue.js';
import { createMailer, type Mailer } from './mailer.js';
import { createPayloadDecoder, type PayloadDecoder } from './payloads/payload-decoder.js';
import { createSecretBox, deriveKey, loadOrCreateSecret, type SecretBox } from './secrets.js';
import { createSigner, type Signer } from './signing.js';
import { createMemoryStreamBus } from './streams/memory-stream-bus.js';
import type { StreamBus } from './streams/stream-bus.js';
import { createTracing, type Tracing } from './tracing.js';

/**
 * Nodes that share a database share a job queue: the prefix names the database (its host, port and
 * name, never its credentials), or the data directory of an embedded one.
 */
export function queuePrefix(config: Config): string {
  if (!config.databaseUrl) {
    return `lectern:${createHash('sha256').update(config.dataDirectory).digest('hex').slice(0, 12)}`;
  }
  const url = new URL(config.databaseUrl);
  return `lectern:${url.hostname}:${url.port || '5432'}${url.pathname}`.replace(/[^A-Za-z0-9:_./-]/g, '_');
}

/** The infrastructure every feature builds on, chosen once at start-up (docs/architecture.md#platform-parts). */
export type Platform = {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  /** Runs an audited request's work and its audit record in one transaction. */
  transactions: TransactionScope;
  /** Invitations and password resets by e-mail, when SMTP_URL is set. */
  mailer: Mailer | undefined;
  jobs: JobQueue;
  streams: StreamBus;
  /** Messages every node hears (deploys, pushed to connected clients). */
  broadcast: Broadcast;
  blobs: BlobStore;
  signer: Signer;
  secretBox: SecretBox;
  /** Keys the audit log's hash chain (features/identity/audit): derived from the secret, never stored. */
  auditChainKey: Buffer;
  /** Attempts per key and window (sign-in throttling), counted by every node together with Redis. */
  attempts: AttemptCounter;
  /** JSON bodies and Base64 contents, large ones decoded on a worker thread. */
  payloads: PayloadDecoder;
  /** Lectern's own runs as OpenTelemetry traces. */
  tracing: Tracing;
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
  /** The embedded database's thread, started before the service's modules loaded (main.ts). */
  startedDatabase?: Promise<StartedEmbeddedDatabase>;
};

export async function createPlatform(
  config: Config,
  logger: Logger,
  options: PlatformOptions = {},
): Promise<Platform> {
  const location: DatabaseLocation = databaseLocationOf(config);
  prepareDataDirectory(config.dataDirectory);
  const opened =
    options.database ??
    (await openDatabase(location, (message) => logger.warn(message), options.startedDatabase));
  const ownsDatabase = options.ownsDatabase ?? !options.database;
  // Every part below holds the scoped view: inside an audited request its queries join the request's transaction.
  const transactions = createTransactionScope(opened.database);
  const database: DatabaseHandle = { ...opened, database: transactions.database };
  const { afterCommit } = transactions;
  const secret = loadOrCreateSecret(config.secret, config.dataDirectory);
  // Scale-out parts by configuration alone (docs/architecture.md#platform-parts): with Redis jobs are BullMQ's and a stream
  // URL may be read on any node; with a bucket or PostgreSQL every node reads the same file bytes.
  // BullMQ and the AWS SDK are loaded only when configured: each adds ~150 ms to start-up.
  const jobLogger = logger.child({ component: 'jobs' });
  const jobs = config.redisUrl
    ? (await import('./jobs/bullmq-job-queue.js')).createBullmqJobQueue(config.redisUrl, jobLogger, {
        prefix: queuePrefix(config),
        slots: config.jobSlots,
        afterCommit,
      })
    : createDatabaseJobQueue(database.database, jobLogger, {
        exclusive: database.kind === 'pglite',
        slots: config.jobSlots,
        afterCommit,
      });
  const streams = config.redisUrl
    ? (await import('./streams/redis-stream-bus.js')).createRedisStreamBus(
        config.redisUrl,
        logger.child({ component: 'streams' }),
      )
    : createMemoryStreamBus();
  const broadcast = config.redisUrl
    ? (await import('./broadcast/redis-broadcast.js')).createRedisBroadcast(
        config.redisUrl,
        queuePrefix(config),
        logger.child({ component: 'broadcast' }),
      )
    : createMemoryBroadcast();
  const attempts = config.redisUrl
    ? createRedisAttemptCounter(config.redisUrl, queuePrefix(config), logger.child({ component: 'attempts' }))
    : createMemoryAttemptCounter();
  const payloads = createPayloadDecoder();
  const { smtpUrl, mailFrom } = config.people;
  const mailer = smtpUrl
    ? await createMailer(smtpUrl, mailFrom, logger.child({ component: 'mail' }))
    : undefined;
  const bucket = config.bucket
    ? (await import('./blobs/bucket-blob-store.js')).createBucketBlobStore(config.bucket)
    : undefined;
  const blobs =
    bucket ??
    (config.databaseUrl
      ? createDatabaseBlobStore(database.database)
      : createFileBlobStore(path.join(config.dataDirectory, 'files')));
  const tracing = createTracing({
    enabled: config.runTraces,
    exportEndpoint: config.otelExportEndpoint,
    // The operator's own collector: any address, with the outbound timeout.
    fetch: (url, init) => fetch(url, { ...init, signal: AbortSignal.timeout(config.fetchTimeoutMs) }),
    logger: logger.child({ component: 'tracing' }),
  });
  return {
    config,
    logger,
    database,
    transactions,
    mailer,
    jobs,
    streams,
    broadcast,
    blobs,
    signer: createSigner(secret),
    secretBox: createSecretBox(secret),
    auditChainKey: deriveKey(secret, 'audit-chain'),
    attempts,
    payloads,
    tracing,
    async checkReadiness() {
      const [databaseCheck, redisCheck, bucketCheck] = await Promise.all([
        check(() => database.database.execute(sql`SELECT 1`)),
        config.redisUrl ? check(() => streams.ping()) : Promise.resolve(undefined),
        bucket ? check(() => bucket.ping()) : Promise.resolve(undefined),
      ]);
      return {
        database: databaseCheck,
        ...(redisCheck && { redis: redisCheck }),
        ...(bucketCheck && { bucket: bucketCheck }),
      };
    },
    async close() {
      await jobs.stop();
      // Its last spans are stored while the database is still open.
      await tracing.close();
      await streams.close();
      await broadcast.close();
      await attempts.close();
      await payloads.close();
      bucket?.close();
      mailer?.close();
      if (ownsDatabase) await database.close();
    },
  };
}
