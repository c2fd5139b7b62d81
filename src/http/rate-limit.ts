import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import { closeRedis, connectRedis } from '../platform/redis-connection.js';

export type RateLimitOptions = {
  /** Requests a minute per API key unless the workspace says otherwise; 0 turns the limit off. */
  perMinute: number;
  /** Counts in Redis, shared by every node, when set; else in this process. */
  redisUrl?: string;
  /** Keeps deployments that share a Redis apart. */
  namespace: string;
  logger: Logger;
};

export class RateLimitedError extends AppError {
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      429,
      'rate_limited',
      `Rate limit reached: ${limit} requests a minute for this API key; retry in ${retryAfterSeconds} s`,
    );
  }
}

/**
 * Per-key rate limits (429 with Retry-After) on every route of `scope`, counted after authentication
 * so that each API key has its own budget; a workspace's `rate_limit_per_minute` setting overrides
 * the instance's. Returns what closes its Redis connection.
 */
export async function registerRateLimit(
  scope: FastifyInstance,
  options: RateLimitOptions,
): Promise<() => Promise<void>> {
  const limitOf = (request: FastifyRequest) =>
    request.workspace?.settings.requestsPerMinute ?? options.perMinute;
  const redis = options.redisUrl
    ? connectRedis(
        options.redisUrl,
        { connectTimeout: 2_000, maxRetriesPerRequest: 1 },
        options.logger,
        'rate-limit',
      )
    : undefined;
  await scope.register(rateLimit, {
    // After the workspace key is checked (onRequest): a key's own count, and its workspace's limit.
    hook: 'preHandler',
    timeWindow: 60_000,
    max: (request) => limitOf(request),
    allowList: (request) => limitOf(request) === 0,
    keyGenerator: (request) => request.workspace?.apiKeyId ?? request.ip,
    ...(redis && { redis, nameSpace: `${options.namespace}:rate-limit:` }),
    // Redis away: requests pass (and /readyz says Redis is down) rather than every request failing.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new RateLimitedError(context.max, Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  return async () => {
    if (redis) await closeRedis(redis);
  };
}
