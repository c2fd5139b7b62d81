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
import { actionRoutes } from './features/authoring/actions/routes.js';
import { appRoutes, workspaceAppListRoute } from './features/authoring/apps/routes.js';
import { folderRoutes } from './features/authoring/folders/routes.js';
import { promptRoutes } from './features/authoring/prompts/routes.js';
import { skillRoutes } from './features/authoring/skills/routes.js';
import { snippetRoutes } from './features/authoring/snippets/routes.js';
import { adminRoutes } from './features/edges/admin/routes.js';
import { fineTuneRoutes } from './features/edges/fine-tunes/routes.js';
import { mcpRoutes } from './features/edges/mcp/routes.js';
import { webhookRoutes } from './features/edges/webhooks/routes.js';
import { auditRoutes } from './features/identity/audit/routes.js';
import { consoleSessionRoutes } from './features/identity/console-sessions/routes.js';
import { consolePeopleRoutes } from './features/identity/people/console-routes.js';
import { peopleRoutes } from './features/identity/people/routes.js';
import { createSingleSignOn } from './features/identity/people/single-sign-on.js';
import { singleSignOnRoutes } from './features/identity/people/single-sign-on-routes.js';
import { apiKeyRoutes } from './features/identity/workspaces/keys-routes.js';
import { workspaceKeyRoutes, workspaceRoutes } from './features/identity/workspaces/routes.js';
import { contextSourceRoutes } from './features/knowledge/context-sources/routes.js';
import {
  contextRoutes,
  unversionedContextSearchRoute,
  workspaceContextListRoute,
} from './features/knowledge/contexts/routes.js';
import { singularContextRoutes } from './features/knowledge/contexts/singular-routes.js';
import { documentRoutes } from './features/knowledge/documents/routes.js';
import { fileUploadRoutes, signedFileRoutes } from './features/knowledge/files/routes.js';
import { providerRoutes, workspaceModelListRoute } from './features/models/providers/routes.js';
import { traceRoutes } from './features/observability/traces/routes.js';
import { datasetRoutes } from './features/quality/datasets/routes.js';
import { evaluationRoutes } from './features/quality/evaluations/routes.js';
import { evaluatorRoutes } from './features/quality/evaluators/routes.js';
import { monitorRoutes } from './features/quality/monitors/routes.js';
import { releaseGateRoutes } from './features/quality/release-gates/routes.js';
import { experimentRoutes } from './features/runtime/experiments/routes.js';
import { feedbackRoutes } from './features/runtime/feedback/routes.js';
import { generationRoutes } from './features/runtime/generations/routes.js';
import { runRoutes } from './features/runtime/runs/routes.js';
import { streamRoutes } from './features/runtime/runs/stream-routes.js';
import { sessionRoutes } from './features/runtime/sessions/routes.js';
import { workflowRoutes } from './features/runtime/workflows/routes.js';
import { requireWorkspaceKey } from './http/authentication.js';
import { registerAuthorization } from './http/authorization.js';
import { registerConsole } from './http/console-assets.js';
import { errorBody, registerErrorHandling } from './http/error-handler.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { createRateLimits } from './http/rate-limit.js';
import { namedComponents, registerResponseContract } from './http/response-contract.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerStorableInputCheck } from './http/storable-input.js';
import { jobRegistrations, registerJobs } from './jobs.js';
import { type Platform, queuePrefix } from './platform/platform.js';
import { createServices, type Services } from './services.js';

export type LecternApp = FastifyInstance & { services: Services };

/** Characters of one path parameter (a GUID, a slug); longer is a 414. */
const maximumParameterLength = 500;

export type AppOptions = {
  /** False on a worker node (`--role worker`): only the health routes answer; jobs do the work. */
  api?: boolean;
};

/** The HTTP application over a platform; main.ts listens on it, tests inject into it. */
export async function buildApp(platform: Platform, options: AppOptions = {}): Promise<LecternApp> {
  const services = createServices(platform);
  // Before any node takes a job: every job kind gets its handler (src/jobs.ts lists them).
  registerJobs(platform.jobs, jobRegistrations(services));
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
  // Streamed generations keep running after their client leaves; let them store their output.
  app.addHook('onClose', () => services.runs.drain());
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
  const consoleSignIns = {
    sessions: services.consoleSessions,
    secureCookie: platform.config.baseUrl.startsWith('https:'),
    publicOrigin: platform.config.baseUrlConfigured ? new URL(platform.config.baseUrl).origin : undefined,
  };
  const { people } = platform.config;
  await app.register(
    consoleSessionRoutes(consoleSignIns, {
      accounts: services.accounts,
      audit: services.audit,
      keySignIn: people.consoleKeySignIn,
      sso: people.oidc !== undefined,
    }),
    { prefix: '/console/v1' },
  );
  if (people.oidc) {
    const { oidc } = people;
    await app.register(
      singleSignOnRoutes(consoleSignIns, {
        sso: createSingleSignOn(oidc, platform.config.baseUrl, platform.signer),
        accounts: services.accounts,
        audit: services.audit,
        workspaceId: async () => (await services.workspaces.findWorkspace('default')).id,
        roles: { defaultRole: oidc.defaultRole, claimConfigured: oidc.roleClaim !== undefined },
        inTransaction: platform.transactions.run,
        baseUrl: platform.config.baseUrl,
      }),
      { prefix: '/console/v1' },
    );
  }
  await app.register(
    consolePeopleRoutes(consoleSignIns, {
      accounts: services.accounts,
      audit: services.audit,
      inTransaction: platform.transactions.run,
    }),
    { prefix: '/console/v1' },
  );
  await app.register(
    async (v1) => {
      requireWorkspaceKey(v1, services.workspaces, consoleSignIns);
      await rateLimits.register(v1);
      await v1.register(appRoutes(services.apps, services.actions));
      await v1.register(
        actionRoutes(services.actions, { skills: services.skills, contexts: services.contexts }),
      );
      await v1.register(promptRoutes(services.prompts, platform.config.eventStreamsPerWorkspace));
      await v1.register(providerRoutes(services.providers, platform.config.providerUrls));
      await v1.register(runRoutes(services.runs, services.idempotentRequests));
      await v1.register(generationRoutes(services.generations, services.statistics));
      await v1.register(feedbackRoutes(services.feedback));
      await v1.register(sessionRoutes(services.sessions, services.generations));
      await v1.register(experimentRoutes(services.experiments, services.idempotentRequests));
      await v1.register(contextRoutes(services.contexts, services.contextSearch, services.contextPrompt));
      await v1.register(documentRoutes(services.documents));
      await v1.register(fileUploadRoutes(services.files));
      await v1.register(contextSourceRoutes(services.contextSources));
      await v1.register(
        singularContextRoutes({
          contexts: services.contexts,
          documents: services.documents,
          sources: services.contextSources,
          files: services.files,
          prompt: services.contextPrompt,
        }),
      );
      await v1.register(skillRoutes(services.skills));
      await v1.register(workflowRoutes(services.workflows, services.workflowRunner));
      await v1.register(fineTuneRoutes());
      await v1.register(peopleRoutes(services.accounts, services.members, services.audit));
      await v1.register(apiKeyRoutes(services.workspaces));
      await v1.register(auditRoutes(services.audit));
      await v1.register(
        datasetRoutes(services.datasets, { importLimitBytes: platform.config.bodyLimitBytes }),
      );
      await v1.register(snippetRoutes(services.snippets));
      await v1.register(webhookRoutes(services.webhooks));
      await v1.register(traceRoutes(services.traces, services.traceExports));
      await v1.register(folderRoutes(services.folders));
      await v1.register(evaluatorRoutes(services.evaluators));
      await v1.register(evaluationRoutes(services.evaluations));
      await v1.register(releaseGateRoutes(services.releaseGates, services.actions));
      await v1.register(monitorRoutes(services.monitors));
      await v1.register(workspaceRoutes(services.workspaces));
      await v1.register(workspaceAppListRoute(services.apps));
      await v1.register(workspaceContextListRoute(services.contexts));
      await v1.register(workspaceModelListRoute(services.providers));
      await v1.register(workspaceKeyRoutes(services.workspaces));
    },
    { prefix: '/v1' },
  );
  await app.register(async (unversioned) => {
    requireWorkspaceKey(unversioned, services.workspaces, consoleSignIns);
    await rateLimits.register(unversioned);
    await unversioned.register(unversionedContextSearchRoute(services.contexts, services.contextSearch));
    await unversioned.register(mcpRoutes(services.mcp));
  });
  await app.register(streamRoutes(services.runs));
  await app.register(signedFileRoutes(services.files, platform.config.fileLimitBytes));
  if (platform.config.adminToken) {
    await app.register(adminRoutes(services.workspaces, services.accounts, platform.config.adminToken), {
      prefix: '/admin/v1',
    });
  }

  await app.ready();
  return Object.assign(app, { services }) as unknown as LecternApp;
}
