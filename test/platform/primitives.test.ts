import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { BlobStore } from '../../src/platform/blobs/blob-store.js';
import { createBucketBlobStore } from '../../src/platform/blobs/bucket-blob-store.js';
import { createDatabaseBlobStore } from '../../src/platform/blobs/database-blob-store.js';
import { createFileBlobStore } from '../../src/platform/blobs/file-blob-store.js';
import { createSecretBox, loadOrCreateSecret } from '../../src/platform/secrets.js';
import { createSigner } from '../../src/platform/signing.js';
import { createMemoryStreamBus } from '../../src/platform/streams/memory-stream-bus.js';
import { createRedisStreamBus } from '../../src/platform/streams/redis-stream-bus.js';
import type { NumberedEvent, StreamBus, StreamEvent } from '../../src/platform/streams/stream-bus.js';
import { type LocalBucket, startLocalBucket } from '../helpers/s3-bucket.js';
import { temporaryDirectory } from '../helpers/temporary-directory.js';
import { databaseUrl, openTestDatabase } from '../helpers/test-app.js';

const redisUrl = process.env.REDIS_URL || undefined;

const directory = () => temporaryDirectory('lectern-primitives-');

describe('signing', () => {
  const signer = createSigner('a-long-enough-test-secret');
  it('verifies its own tokens and refuses tampered, misapplied and expired ones', () => {
    const expiresAt = Date.now() + 60_000;
    const token = signer.sign('file', 'guid-1', expiresAt);
    expect(signer.verify('file', 'guid-1', token)).toBe('valid');
    expect(signer.verify('file', 'guid-2', token)).toBe('invalid');
    expect(signer.verify('stream', 'guid-1', token)).toBe('invalid');
    expect(signer.verify('file', 'guid-1', `${expiresAt + 1}${token.slice(String(expiresAt).length)}`)).toBe(
      'invalid',
    );
    expect(signer.verify('file', 'guid-1', `${token.slice(0, -2)}AA`)).toBe('invalid');
    expect(signer.verify('file', 'guid-1', 'garbage')).toBe('invalid');
    expect(signer.verify('file', 'guid-1', token, expiresAt + 1)).toBe('expired');
    expect(createSigner('another-secret-entirely').verify('file', 'guid-1', token)).toBe('invalid');
  });
});

describe('secrets', () => {
  it('generates the instance secret once and keeps it', () => {
    const dataDirectory = directory();
    const first = loadOrCreateSecret(undefined, dataDirectory);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(loadOrCreateSecret(undefined, dataDirectory)).toBe(first);
    expect(loadOrCreateSecret('configured-secret-value', dataDirectory)).toBe('configured-secret-value');
  });

  it('encrypts with AES-256-GCM: fresh IVs, authenticated, key-bound', () => {
    const box = createSecretBox('secret-one-secret-one');
    const first = box.encrypt('sk-live-123');
    const second = box.encrypt('sk-live-123');
    expect(first).not.toBe(second);
    expect(first).not.toContain('sk-live');
    expect(box.decrypt(first)).toBe('sk-live-123');
    const tampered = first.slice(0, -3) + (first.endsWith('A') ? 'BBB' : 'AAA');
    expect(() => box.decrypt(tampered)).toThrow();
    expect(() => createSecretBox('secret-two-secret-two').decrypt(first)).toThrow();
  });
});

/** A local S3-compatible server, for the bucket store in both passes. */
let bucket: LocalBucket;
beforeAll(async () => {
  bucket = await startLocalBucket();
});
afterAll(() => bucket.close());
const bucketConfig = (overrides: Record<string, string> = {}) =>
  loadConfig({ ...bucket.environment, ...overrides }).bucket!;

const blobStores: [string, () => Promise<{ store: BlobStore; close(): Promise<void> }>][] = [
  ['file', async () => ({ store: createFileBlobStore(directory()), close: async () => undefined })],
  [
    databaseUrl ? 'PostgreSQL' : 'PGlite',
    async () => {
      const handle = await openTestDatabase();
      return { store: createDatabaseBlobStore(handle.database), close: () => handle.close() };
    },
  ],
  [
    'S3 bucket',
    async () => {
      const store = createBucketBlobStore(bucketConfig());
      return { store, close: async () => store.close() };
    },
  ],
];

describe.each(blobStores)('%s blob store', (_name, open) => {
  it('stores, reads, replaces and deletes bytes by key and refuses path tricks', async () => {
    const { store, close } = await open();
    try {
      const key = `workspace-${randomUUID()}/file-1`;
      const data = Buffer.from([0, 1, 2, 255]);
      await store.put(key, data);
      expect(await store.get(key)).toEqual(data);
      await store.put(key, Buffer.from('replaced'));
      expect((await store.get(key))?.toString()).toBe('replaced');
      expect(await store.get(`${key}-missing`)).toBeUndefined();
      await store.delete(key);
      expect(await store.get(key)).toBeUndefined();
      await expect(store.put('../escape', data)).rejects.toThrow(/Invalid blob key/);
      await expect(store.get('/etc/passwd')).rejects.toThrow(/Invalid blob key/);
    } finally {
      await close();
    }
  });
});

describe('S3 bucket blob store', () => {
  it('sends its credentials (an unknown key is refused) and fails its ping for a missing bucket', async () => {
    const forged = createBucketBlobStore(bucketConfig({ S3_ACCESS_KEY_ID: 'UNKNOWNKEY' }));
    const missing = createBucketBlobStore(bucketConfig({ S3_BUCKET: 'no-such-bucket' }));
    try {
      await expect(forged.put('files/a/b', Buffer.from('x'))).rejects.toThrow(/Access Key Id/i);
      await expect(createBucketBlobStore(bucketConfig()).ping()).resolves.toBeUndefined();
      await expect(missing.ping()).rejects.toThrow();
    } finally {
      forged.close();
      missing.close();
    }
  });
});

async function collectNumbered(iterable: AsyncIterable<NumberedEvent>): Promise<NumberedEvent[]> {
  const events: NumberedEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

async function collect(iterable: AsyncIterable<NumberedEvent>): Promise<StreamEvent[]> {
  return (await collectNumbered(iterable)).map((numbered) => numbered.event);
}

const firstClaim = { resume: false, resumeWindowMs: 60_000 };

/** Redis runs with REDIS_URL (CI's PostgreSQL pass); two buses stand for two nodes. */
const streamBuses: [string, () => StreamBus][] = [
  ['memory', () => createMemoryStreamBus()],
  ...(redisUrl ? [['Redis', () => createRedisStreamBus(redisUrl)] as [string, () => StreamBus]] : []),
];

describe.each(streamBuses)('%s stream bus', (_name, open) => {
  it('replays from the first token to a late reader and follows live ones', async () => {
    const bus = open();
    const id = `s1-${randomUUID()}`;
    await bus.create(id, 60_000);
    await bus.append(id, { type: 'token', token: 'Hello' });
    const reading = collectNumbered(bus.read(id));
    await bus.append(id, { type: 'token', token: ' world' });
    await bus.append(id, { type: 'end' });
    expect(await reading).toEqual([
      { sequence: 1, event: { type: 'token', token: 'Hello' } },
      { sequence: 2, event: { type: 'token', token: ' world' } },
      { sequence: 3, event: { type: 'end' } },
    ]);
    await bus.close();
  });

  it('lets a reconnect resume a claimed stream only within the window that the first claim opened', async () => {
    const bus = open();
    const id = `s7-${randomUUID()}`;
    await bus.create(id, 60_000);
    const window = { resume: true, resumeWindowMs: 300 };
    const claimedAt = Date.now();
    expect(await bus.claim(id, window)).toBe('claimed');
    expect(await bus.claim(id, { ...window, resume: false })).toBe('consumed');
    // Resuming again and again (a replay with Last-Event-ID: 0) never moves the window's end.
    while (Date.now() - claimedAt < 200) {
      expect(await bus.claim(id, window)).toBe('resumed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, claimedAt + 350 - Date.now()));
    expect(await bus.claim(id, window)).toBe('consumed');
    await bus.close();
  });

  it('lets exactly one consumer claim a stream', async () => {
    const bus = open();
    const id = `s2-${randomUUID()}`;
    await bus.create(id, 60_000);
    const claims = await Promise.all([
      bus.claim(id, firstClaim),
      bus.claim(id, firstClaim),
      bus.claim(id, firstClaim),
    ]);
    expect(claims.sort()).toEqual(['claimed', 'consumed', 'consumed']);
    expect(await bus.claim(`unknown-${randomUUID()}`, firstClaim)).toBe('unknown');
    await bus.close();
  });
});

describe('memory stream bus', () => {
  it('forgets streams after their time to live', async () => {
    let now = 1_000;
    const bus = createMemoryStreamBus(() => now);
    await bus.create('s3', 100);
    await bus.append('s3', { type: 'error', message: 'provider down' });
    expect(await collect(bus.read('s3'))).toEqual([{ type: 'error', message: 'provider down' }]);
    now += 101;
    expect(await bus.claim('s3', firstClaim)).toBe('unknown');
    expect(await collect(bus.read('s3'))).toEqual([]);
    await bus.close();
  });
});

// Registered only with REDIS_URL (CI's PostgreSQL pass): two buses stand for two nodes.
if (redisUrl) {
  describe('Redis stream bus', () => {
    it('carries a stream across nodes: written on one, claimed once and read on another', async () => {
      const nodeA = createRedisStreamBus(redisUrl!);
      const nodeB = createRedisStreamBus(redisUrl!);
      const id = `s4-${randomUUID()}`;
      await nodeA.create(id, 60_000);
      await nodeA.append(id, { type: 'token', token: 'across' });
      expect(await nodeB.claim(id, firstClaim)).toBe('claimed');
      expect(await nodeA.claim(id, firstClaim)).toBe('consumed');
      const reading = collect(nodeB.read(id));
      await nodeA.append(id, { type: 'end' });
      expect(await reading).toEqual([{ type: 'token', token: 'across' }, { type: 'end' }]);
      const controller = new AbortController();
      const endless = `s5-${randomUUID()}`;
      await nodeA.create(endless, 60_000);
      const stopped = collect(nodeB.read(endless, controller.signal));
      setTimeout(() => controller.abort(), 50);
      expect(await stopped).toEqual([]);
      await nodeA.close();
      await nodeB.close();
    });

    it('expires streams and their claims with the time to live', async () => {
      const bus = createRedisStreamBus(redisUrl!);
      const id = `s6-${randomUUID()}`;
      await bus.create(id, 150);
      await bus.append(id, { type: 'token', token: 'soon gone' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await bus.claim(id, firstClaim)).toBe('unknown');
      await bus.append(id, { type: 'token', token: 'not stored' });
      expect(await collect(bus.read(id))).toEqual([]);
      await bus.close();
    });
  });
}
