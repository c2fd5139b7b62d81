/**
 * A small in-process cache for hot reads on the run path (API key → workspace, Action → deployed
 * version, model reference → provider client). Writes made through this process invalidate it at
 * once; other nodes see a change within `ttlMs`. Loads are shared: concurrent misses of one key make
 * one load. Failed loads and `undefined` results are not kept.
 */
export type ReadCache<Value> = {
  get(key: string, load: () => Promise<Value>): Promise<Value>;
  /** Drops every key that starts with `prefix` (all keys when it is empty). */
  invalidate(prefix?: string): void;
};

export function createReadCache<Value>(options: { ttlMs: number; maxEntries?: number }): ReadCache<Value> {
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, { value: Promise<Value>; expiresAt: number }>();

  return {
    get(key, load) {
      const now = Date.now();
      const cached = entries.get(key);
      if (cached && cached.expiresAt > now) return cached.value;
      if (entries.size >= maxEntries) {
        // Map iteration is insertion order: the first key is the oldest.
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      const value = load();
      const entry = { value, expiresAt: now + options.ttlMs };
      entries.set(key, entry);
      value.then(
        (result) => {
          if (result === undefined && entries.get(key) === entry) entries.delete(key);
        },
        () => {
          if (entries.get(key) === entry) entries.delete(key);
        },
      );
      return value;
    },
    invalidate(prefix = '') {
      if (prefix === '') return entries.clear();
      for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
    },
  };
}
