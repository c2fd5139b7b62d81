import type { Logger } from 'pino';
import { closeRedis, connectRedis } from './redis-connection.js';

/** How many attempts a key has made in its current window, and when that window ends. */
export type AttemptCount = { attempts: number; resetInMs: number };

/**
 * Counts attempts per key in fixed windows (sign-ins per address, per key): in process, or in Redis
 * so that every node counts together. A window opens with a key's first attempt.
 */
export type AttemptCounter = {
  /** Counts one attempt of `key` and answers the window's count so far (this one included). */
  count(key: string, windowMs: number): Promise<AttemptCount>;
  /** The current window's count without counting (0 when no window is open). */
  peek(key: string): Promise<AttemptCount>;
  close(): Promise<void>;
};

export function createMemoryAttemptCounter(now: () => number = () => Date.now()): AttemptCounter {
  const windows = new Map<string, { attempts: number; endsAt: number }>();
  const sweeper = setInterval(() => {
    const at = now();
    for (const [key, window] of windows) if (window.endsAt <= at) windows.delete(key);
  }, 60_000);
  sweeper.unref();
  return {
    async count(key, windowMs) {
      const at = now();
      let window = windows.get(key);
      if (!window || window.endsAt <= at) {
        window = { attempts: 0, endsAt: at + windowMs };
        windows.set(key, window);
      }
      window.attempts += 1;
      return { attempts: window.attempts, resetInMs: window.endsAt - at };
    },
    async peek(key) {
      const at = now();
      const window = windows.get(key);
      if (!window || window.endsAt <= at) return { attempts: 0, resetInMs: 0 };
      return { attempts: window.attempts, resetInMs: window.endsAt - at };
    },
    async close() {
      clearInterval(sweeper);
      windows.clear();
    },
  };
}

/** INCR, with the window's expiry set by the first attempt; answers the count and the time left. */
const countScript = `
local attempts = redis.call('INCR', KEYS[1])
if attempts == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {attempts, redis.call('PTTL', KEYS[1])}`;

type ScriptedRedis = ReturnType<typeof connectRedis> & {
  lecternCountAttempt(key: string, windowMs: number): Promise<[number, number]>;
};

/**
 * The counter in Redis. While Redis is away an attempt counts as the first of its window (it passes,
 * and the failure is logged): an outage must not lock everyone out of the console.
 */
export function createRedisAttemptCounter(
  redisUrl: string,
  namespace: string,
  logger: Logger,
): AttemptCounter {
  const redis = connectRedis(
    redisUrl,
    { connectTimeout: 2_000, maxRetriesPerRequest: 1, enableOfflineQueue: false },
    logger,
    'attempt counter',
  ) as ScriptedRedis;
  redis.defineCommand('lecternCountAttempt', { numberOfKeys: 1, lua: countScript });
  return {
    async count(key, windowMs) {
      try {
        const [attempts, ttl] = await redis.lecternCountAttempt(`${namespace}:attempts:${key}`, windowMs);
        return { attempts, resetInMs: ttl > 0 ? ttl : windowMs };
      } catch (error) {
        logger.warn({ err: (error as Error).message }, 'attempt count failed; letting the attempt pass');
        return { attempts: 1, resetInMs: windowMs };
      }
    },
    async peek(key) {
      try {
        const redisKey = `${namespace}:attempts:${key}`;
        const [attempts, ttl] = await Promise.all([redis.get(redisKey), redis.pttl(redisKey)]);
        return { attempts: Number(attempts ?? 0), resetInMs: Math.max(0, ttl) };
      } catch (error) {
        logger.warn({ err: (error as Error).message }, 'attempt count failed; letting the attempt pass');
        return { attempts: 0, resetInMs: 0 };
      }
    },
    async close() {
      await closeRedis(redis);
    },
  };
}
