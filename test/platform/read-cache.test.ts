import { describe, expect, it, vi } from 'vitest';
import { createReadCache } from '../../src/platform/read-cache.js';

describe('read cache', () => {
  it('shares one load between concurrent misses and serves hits until the entry expires', async () => {
    vi.useFakeTimers();
    try {
      const cache = createReadCache<number>({ ttlMs: 1000 });
      const load = vi.fn(async () => 42);
      const [first, second] = await Promise.all([cache.get('a', load), cache.get('a', load)]);
      expect([first, second]).toEqual([42, 42]);
      expect(load).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(999);
      await cache.get('a', load);
      expect(load).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(2);
      await cache.get('a', load);
      expect(load).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps neither failures nor undefined, and forgets by prefix', async () => {
    const cache = createReadCache<string | undefined>({ ttlMs: 60_000 });
    await expect(cache.get('x', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('x', async () => 'up')).toBe('up');
    await cache.get('missing', async () => undefined);
    await Promise.resolve();
    expect(await cache.get('missing', async () => 'found')).toBe('found');

    await cache.get('w1:a', async () => 'old');
    await cache.get('w2:a', async () => 'kept');
    cache.invalidate('w1:');
    expect(await cache.get('w1:a', async () => 'new')).toBe('new');
    expect(await cache.get('w2:a', async () => 'reloaded')).toBe('kept');
  });

  it('drops the oldest entry beyond its size', async () => {
    const cache = createReadCache<number>({ ttlMs: 60_000, maxEntries: 2 });
    await cache.get('a', async () => 1);
    await cache.get('b', async () => 2);
    await cache.get('c', async () => 3);
    expect(await cache.get('a', async () => 10)).toBe(10);
    expect(await cache.get('c', async () => 30)).toBe(3);
  });
});
