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

type Window = { current: number; ttl: number; iterationStartMs: number };
type Counted = (error: Error | null, window: { current: number; ttl: number }) => void;

/** How many workspaces' windows a process keeps; the least recently counted are forgotten first. */
const rememberedWorkspaces = 10_000;

/**
 * One process's counts, shared by every scope the limit is registered on: the plugin would give each
 * registration a store of its own, and a workspace would then have one budget for `/v1` and another
 * for `/mcp`. A fixed window per workspace, as the plugin's own store counts.
 */
function sharedLocalStore() {
  const windows = new Map<string, Window>();
  const store = {
    incr(key: string, counted: Counted, timeWindow: number) {
      const now = Date.now();
      let window = windows.get(key);
      if (!window || window.iterationStartMs + timeWindow <= now) {
        window = { current: 0, ttl: timeWindow, iterationStartMs: now };
      }
      window.current += 1;
      window.ttl = timeWindow - (now - window.iterationStartMs);
      // Re-inserted: the Map's order is the order of last use.
      windows.delete(key);
      windows.set(key, window);
      if (windows.size > rememberedWorkspaces) windows.delete(windows.keys().next().value!);
      counted(null, { current: window.current, ttl: window.ttl });
    },
    read(key: string, counted: Counted, timeWindow: number) {
      const window = windows.get(key);
      const now = Date.now();
      if (!window || window.iterationStartMs + timeWindow <= now)
        return counted(null, { current: 0, ttl: 0 });
      counted(null, { current: window.current, ttl: timeWindow - (now - window.iterationStartMs) });
    },
    child: () => store,
  };
  // The plugin constructs its store; every construction answers the one above.
  return function SharedStore() {
    return store;
  } as unknown as new (
    ...parameters: unknown[]
  ) => typeof store;
}

/**
 * Per-workspace rate limits (429 with Retry-After), counted after authentication: every key and
 * console sign-in of a workspace draws on one budget, so minting more keys never buys more requests.
 * A workspace's `rate_limit_per_minute` setting overrides the instance's. One Redis connection, or one
 * store in this process, serves every scope it is registered on: `/v1`, `/mcp` and the rest draw on one budget.
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
  const localStore = redis ? undefined : sharedLocalStore();
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
        ...(redis ? { redis, nameSpace: `${options.namespace}:rate-limit:` } : { store: localStore }),
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
