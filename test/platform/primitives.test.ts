import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileBlobStore } from '../../src/platform/blobs/file-blob-store.js';
import { createSecretBox, loadOrCreateSecret } from '../../src/platform/secrets.js';
import { createSigner } from '../../src/platform/signing.js';
import { createMemoryStreamBus } from '../../src/platform/streams/memory-stream-bus.js';
import type { StreamEvent } from '../../src/platform/streams/stream-bus.js';

const directory = () => mkdtempSync(path.join(tmpdir(), 'lectern-primitives-'));

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

describe('file blob store', () => {
  it('stores, reads and deletes bytes by key and refuses path tricks', async () => {
    const store = createFileBlobStore(directory());
    const data = Buffer.from([0, 1, 2, 255]);
    await store.put('workspace-1/file-1', data);
    expect(await store.get('workspace-1/file-1')).toEqual(data);
    expect(await store.get('workspace-1/missing')).toBeUndefined();
    await store.delete('workspace-1/file-1');
    expect(await store.get('workspace-1/file-1')).toBeUndefined();
    await expect(store.put('../escape', data)).rejects.toThrow(/Invalid blob key/);
    await expect(store.get('/etc/passwd')).rejects.toThrow(/Invalid blob key/);
  });
});

describe('memory stream bus', () => {
  async function collect(iterable: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
    const events: StreamEvent[] = [];
    for await (const event of iterable) events.push(event);
    return events;
  }

  it('replays from the first token to a late reader and follows live ones', async () => {
    const bus = createMemoryStreamBus();
    await bus.create('s1', 60_000);
    await bus.append('s1', { type: 'token', token: 'Hello' });
    const reading = collect(bus.read('s1'));
    await bus.append('s1', { type: 'token', token: ' world' });
    await bus.append('s1', { type: 'end' });
    expect(await reading).toEqual([
      { type: 'token', token: 'Hello' },
      { type: 'token', token: ' world' },
      { type: 'end' },
    ]);
    await bus.close();
  });

  it('lets exactly one consumer claim a stream', async () => {
    const bus = createMemoryStreamBus();
    await bus.create('s2', 60_000);
    const claims = await Promise.all([bus.claim('s2'), bus.claim('s2'), bus.claim('s2')]);
    expect(claims.sort()).toEqual(['claimed', 'consumed', 'consumed']);
    expect(await bus.claim('unknown')).toBe('unknown');
    await bus.close();
  });

  it('forgets streams after their time to live', async () => {
    let now = 1_000;
    const bus = createMemoryStreamBus(() => now);
    await bus.create('s3', 100);
    await bus.append('s3', { type: 'error', message: 'provider down' });
    expect(await collect(bus.read('s3'))).toEqual([{ type: 'error', message: 'provider down' }]);
    now += 101;
    expect(await bus.claim('s3')).toBe('unknown');
    expect(await collect(bus.read('s3'))).toEqual([]);
    await bus.close();
  });
});
