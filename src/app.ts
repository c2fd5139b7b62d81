import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  LogController,
} from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ErrorCode } from './core/error-codes.js';
import type { FeatureModule, FeatureRoutes, RouteMount } from './features/feature-module.js';
import { requireWorkspaceKey } from './http/authentication.js';
import { registerAuthorization } from './http/authorization.js';
import { registerConsole } from './http/console-assets.js';
import { errorBody, registerErrorHandling } from './http/error-handler.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { createRateLimits } from './http/rate-limit.js';
import { namedComponents, registerResponseContract } from './http/response-contract.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerStorableInputCheck } from './http/storable-input.js';
import { registerJobs } from './jobs.js';
import { type Platform, queuePrefix } from './platform/platform.js';
import { createModules, type Modules, type Services, servicesOf } from './services.js';

export type LecternApp = FastifyInstance & { services: Services };

/** Characters of one path parameter (a GUID, a slug); longer is a 414. */
const maximumParameterLength = 500;

export type AppOptions = {
  /** False on a worker node (`--role worker`): only the health routes answer; jobs do the work. */
  api?: boolean;
};

/** The HTTP application over a platform; main.ts listens on it, tests inject into it. */
export async function buildApp(platform: Platform, options: AppOptions = {}): Promise<LecternApp> {
  const built = createModules(platform);
  const { modules } = built;
  const services = servicesOf(built);
  // Before any node takes a job: every job kind gets its handler (each module pairs its own).
  registerJobs(platform.jobs, modules);
  const { timeouts } = platform.config;
  const app = Fastify({
    loggerInstance: platform.logger as FastifyBaseLogger,
    bodyLimit: platform.config.bodyLimitBytes,
    // A client that trickles its request (1 byte every 10 s) is answered 408 and cut off instead of
    // holding a connection for ever; Node checks its connections against these every interval.
    requestTimeout: timeouts.requestMs,
    // Which proxies may name the client's address (sign-in throttling counts per address).
    trustProxy: platform.config.trustProxy,
    keepAliveTimeout: timeouts.keepAliveMs,
    // A stopping node answers the requests that reach it on connections it had accepted (with
    // `Connection: close`) instead of refusing them with Fastify's own 503, which is not the
    // documented error body and which a proxy passes on to the caller.
    return503OnClosing: false,
    http: {
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: Math.min(5_000, Math.max(250, Math.floor(timeouts.headersMs / 4))),
    },
    // Older clients add a trailing slash (docs/api.md#errors).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maximumParameterLength },
    // One access-log line per request, written when it completes (see the onResponse hook below).
    logController: new LogController({ disableRequestLogging: true }),
    // Errors Fastify answers before any route (a malformed URL, a path parameter too long) get the
    // documented error body too, not Fastify's own shape.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode === 414 ? 414 : 400;
      const [code, message]: [ErrorCode, string] =
        status === 414
          ? ['uri_too_long', `A path parameter is longer than ${maximumParameterLength} characters`]
          : ['invalid_url', 'The URL is malformed (a bad percent-encoding?)'];
      return (reply as FastifyReply).status(status).send(errorBody(status, code, message));
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { req: request, statusCode: reply.statusCode, responseTime: reply.elapsedTime },
      'request completed',
    );
  });

  registerSecurityHeaders(app, { https: platform.config.baseUrl.startsWith('https:') });
  app.setValidatorCompiler(validatorCompiler);
  registerResponseContract(app, platform.config.checkResponses);
  registerJsonBodyParser(app, platform.payloads);
  registerStorableInputCheck(app);
  // Before any route: each states its right, and configuration changes are audited.
  registerAuthorization(app, { transactions: platform.transactions, audit: services.audit });
  // Worker nodes answer health checks only: no console there.
  registerErrorHandling(app, options.api === false ? undefined : await registerConsole(app, platform.logger));

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Lectern',
        version: '1',
        description: 'Self-hosted prompt management. Authenticate with `Authorization: Bearer <API key>`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    // Records with an id (Action, Generation, Error…) are components the routes refer to.
    transformObject: namedComponents,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get(
    '/healthz',
    { schema: { hide: true, response: { 200: z.strictObject({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
  // Ready when the database (and Redis, when configured) answer: a load balancer's check.
  const readiness = z.strictObject({
    status: z.enum(['ready', 'not_ready']),
    checks: z.record(z.string(), z.string()),
  });
  app.get(
    '/readyz',
    { schema: { hide: true, response: { 200: readiness, 503: readiness } } },
    async (_request, reply) => {
      const checks = await platform.checkReadiness();
      const ready = Object.values(checks).every((check) => check === 'ok');
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
    },
  );
  // Streamed generations keep running after their client leaves (the runs module waits for them).
  app.addHook('onClose', () => services.close());
  if (options.api === false) {
    await app.ready();
    return Object.assign(app, { services }) as unknown as LecternApp;
  }

  const rateLimits = createRateLimits({
    perMinute: platform.config.rateLimitPerMinute,
    redisUrl: platform.config.redisUrl,
    namespace: queuePrefix(platform.config),
    logger: platform.logger,
  });
  app.addHook('onClose', () => rateLimits.close());
  const signIns = modules.consoleSessions.shares.signIns;
  const mounted = (mount: RouteMount) => routesAt(modules, mount);
  await app.register(
    async (v1) => {
      requireWorkspaceKey(v1, services.workspaces, signIns);
      await rateLimits.register(v1);
      for (const routes of mounted('v1')) await v1.register(routes);
    },
    { prefix: '/v1' },
  );
  await app.register(async (unversioned) => {
    requireWorkspaceKey(unversioned, services.workspaces, signIns);
    await rateLimits.register(unversioned);
    for (const routes of mounted('unversioned')) await unversioned.register(routes);
  });
  for (const routes of mounted('console')) await app.register(routes, { prefix: '/console/v1' });
  for (const routes of mounted('admin')) await app.register(routes, { prefix: '/admin/v1' });
  for (const routes of mounted('open')) await app.register(routes);

  await app.ready();
  return Object.assign(app, { services }) as unknown as LecternApp;
}

/** The routes the modules mount at one place, in the modules' order. */
function routesAt(modules: Modules, mount: RouteMount): NonNullable<FeatureRoutes[RouteMount]> {
  const list: FeatureModule[] = Object.values(modules);
  return list.flatMap((module) => module.routes?.[mount] ?? []);
}
