import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

const repeatIntervalMs = 30_000;

/**
 * A warning logger that writes a given message at most once per 30 s: while Redis is away ioredis
 * retries and reports every failed attempt, on every connection, and BullMQ repeats them.
 */
export function throttledErrorLog(
  logger: Logger | undefined,
  message: string,
  fields: Record<string, string>,
) {
  const loggedAt = new Map<string, number>();
  return (error: Error) => {
    const now = Date.now();
    if (now - (loggedAt.get(error.message) ?? 0) < repeatIntervalMs) return;
    loggedAt.set(error.message, now);
    logger?.warn({ ...fields, err: error.message }, message);
  };
}

/**
 * Logs a connection's errors instead of leaving ioredis to print them as unhandled. Commands fail
 * (or wait, for BullMQ) while Redis is away, and /readyz says so.
 */
export function watchRedisErrors(connection: Redis, logger: Logger | undefined, role: string): Redis {
  connection.on('error', throttledErrorLog(logger, 'Redis connection error; retrying', { connection: role }));
  return connection;
}

export function connectRedis(
  url: string,
  options: RedisOptions,
  logger: Logger | undefined,
  role: string,
): Redis {
  // Required on first use: a service without Redis (the embedded default) never loads ioredis.
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  return watchRedisErrors(new RedisClient(url, options), logger, role);
}

/** QUIT when connected (pending replies arrive first); while Redis is away, just drop the connection. */
export async function closeRedis(connection: Redis): Promise<void> {
  if (connection.status === 'ready') {
    await connection.quit().catch(() => connection.disconnect());
  } else {
    connection.disconnect();
  }
}

/**
 * Waits (bounded) for a connection that is still making its first connection, so that commands sent
 * right after start-up are not refused by a connection without an offline queue. A connection that
 * is ready, or reconnecting after Redis went away, is answered at once.
 */
export async function whenFirstConnected(connection: Redis, timeoutMs: number): Promise<void> {
  if (!['wait', 'connecting', 'connect'].includes(connection.status)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      connection.off('ready', done);
      connection.off('end', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    connection.once('ready', done);
    connection.once('end', done);
  });
}
