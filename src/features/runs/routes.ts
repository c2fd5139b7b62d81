import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerToken, workspaceOf } from '../../http/authentication.js';
import { guidOrSlugParams } from '../actions/schemas.js';
import type { AuthenticatedWorkspace } from '../workspaces/service.js';
import type { RunCaller, RunEngine } from './engine.js';
import { gatewayPayload } from './gateway-payload.js';
import { gatewayPayloadBody, legacyRunBody, resultParams, runBody } from './schemas.js';
import type { RunService } from './service.js';

export function callerOf(workspace: AuthenticatedWorkspace): RunCaller {
  return { workspaceId: workspace.id, allowModelOverrides: workspace.settings.allowModelOverrides !== false };
}

export function runRoutes(runs: RunService, engine: RunEngine): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['runs'];

    app.post(
      '/actions/:guidOrSlug/prompt',
      { schema: { tags, params: guidOrSlugParams, body: runBody } },
      async (request) => runs.run(callerOf(workspaceOf(request)), request.params.guidOrSlug, request.body),
    );

    // Older clients run Actions through the collection with the Action in the body (CONTRACT §12).
    app.post('/actions', { schema: { tags, body: legacyRunBody } }, async (request) => {
      const { action, metadata_filter, ...fields } = request.body;
      const runRequest = { ...fields, metadata: fields.metadata ?? metadata_filter ?? undefined };
      return runs.run(callerOf(workspaceOf(request)), action, runRequest);
    });

    app.get('/actions/result/:resultKey', { schema: { tags, params: resultParams } }, async (request) => {
      return runs.result(workspaceOf(request).id, request.params.resultKey);
    });

    app.post(
      '/actions/:guidOrSlug/gateway_payload',
      { schema: { tags, params: guidOrSlugParams, body: gatewayPayloadBody } },
      async (request, reply) => {
        const run = await engine.prepare(
          callerOf(workspaceOf(request)),
          request.params.guidOrSlug,
          request.body,
          {
            source: 'sync',
          },
        );
        // Holds the provider key: never cached, never logged (SPEC §4.8).
        reply.header('cache-control', 'no-store');
        return gatewayPayload(run, bearerToken(request)!);
      },
    );
  };
}
