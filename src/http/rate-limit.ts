import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import { closeRedis, connectRedis } from '../platform/redis-connection.js';

export type RateLimitOptions = {
  /** Requests a minute per workspace unless the workspace says otherwise; 0 turns the limit off. */
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
      `Rate limit reached: ${limit} requests a minute for this workspace; retry in ${retryAfterSeconds} s`,
    );
  }
}

/**
 * Per-workspace rate limits (429 with Retry-After), counted after authentication: every key and
 * console sign-in of a workspace draws on one budget, so minting more keys never buys more requests.
 * A workspace's `rate_limit_per_minute` setting overrides the instance's. One Redis connection serves
 * every scope it is registered on.
 */
export function createRateLimits(options: RateLimitOptions) {
  const limitOf = (request: FastifyRequest) =>
    request.workspace?.settings.requestsPerMinute ?? options.perMinute;
  // Without an offline queue a count fails at once while Redis is away (and the request passes, see
  // skipOnError): an outage must not make every request wait for Redis.
  const redis = options.redisUrl
    ? connectRedis(
        options.redisUrl,
        { connectTimeout: 2_000, maxRetriesPerRequest: 1, enableOfflineQueue: false },
        options.logger,
        'rate limit',
      )
    : undefined;
  return {
    /** On every route of `scope` (behind its workspace key check). */
    async register(scope: FastifyInstance): Promise<void> {
      await scope.register(rateLimit, {
        // After the workspace key is checked (onRequest): the workspace's count and limit.
        hook: 'preHandler',
        timeWindow: 60_000,
        max: (request) => limitOf(request),
        allowList: (request) => limitOf(request) === 0,
        keyGenerator: (request) => request.workspace?.id ?? request.ip,
        ...(redis && { redis, nameSpace: `${options.namespace}:rate-limit:` }),
        // Redis away: requests pass (and /readyz says Redis is down) rather than every request failing.
        skipOnError: true,
        errorResponseBuilder: (_request, context) =>
          new RateLimitedError(context.max, Math.max(1, Math.ceil(context.ttl / 1000))),
      });
    },
    async close(): Promise<void> {
      if (redis) await closeRedis(redis);
    },
  };
}
