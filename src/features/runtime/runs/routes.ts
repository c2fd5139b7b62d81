import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../core/wire.js';
import { NotSupportedError } from '../../../errors.js';
import { bearerToken, workspaceOf } from '../../../http/authentication.js';
import { guidOrSlugParams } from '../../authoring/actions/index.js';
import { callerOf } from './caller.js';
import type { IdempotentRequests } from './idempotency.js';
import { gatewayPayloadResponse, runResponse, runResultResponse } from './responses.js';
import { runInputFromWire, runModeOf } from './run-input.js';
import { gatewayPayloadBody, idempotencyHeaders, legacyRunBody, resultParams, runBody } from './schemas.js';
import type { RunService } from './service.js';

export function runRoutes(runs: RunService, idempotent: IdempotentRequests): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['runs'];

    app.post(
      '/actions/:guidOrSlug/prompt',
      {
        schema: {
          'x-right': 'run',
          tags,
          params: guidOrSlugParams,
          body: runBody,
          headers: idempotencyHeaders,
          response: { 200: runResponse },
        },
      },
      async (request) => {
        const caller = callerOf(workspaceOf(request), request.headers.traceparent);
        const { guidOrSlug } = request.params;
        const mode = runModeOf(request.body);
        return idempotent.once(
          caller.workspaceId,
          request.headers['idempotency-key'],
          ['run', guidOrSlug, request.body],
          () => runs.run(caller, guidOrSlug, runInputFromWire(request.body), mode),
        );
      },
    );

    // Older clients run Actions through the collection with the Action in the body (docs/sdk-compatibility.md).
    app.post(
      '/actions',
      {
        schema: {
          'x-right': 'run',
          tags,
          body: legacyRunBody,
          headers: idempotencyHeaders,
          response: { 200: runResponse },
        },
      },
      async (request) => {
        const { action, metadata_filter, ...fields } = request.body;
        const runRequest = { ...fields, metadata: fields.metadata ?? metadata_filter ?? undefined };
        const caller = callerOf(workspaceOf(request), request.headers.traceparent);
        const mode = runModeOf(runRequest);
        return idempotent.once(
          caller.workspaceId,
          request.headers['idempotency-key'],
          ['run', action, runRequest],
          () => runs.run(caller, action, runInputFromWire(runRequest), mode),
        );
      },
    );

    // The SDK's actions.playground runs a prompt with no Action; every Lectern run is an Action's.
    app.post(
      '/actions/playground',
      { schema: { 'x-right': 'run', tags, hide: true, response: { 501: errorResponse } } },
      async () => {
        throw new NotSupportedError(
          'Running a prompt without an Action (actions.playground)',
          'create an Action (POST /v1/actions/create) and run it; a saved version runs with "version" before it is deployed',
        );
      },
    );

    app.get(
      '/actions/result/:resultKey',
      {
        schema: { 'x-right': 'read_runs', tags, params: resultParams, response: { 200: runResultResponse } },
      },
      async (request) => {
        return runs.result(workspaceOf(request).id, request.params.resultKey);
      },
    );

    app.post(
      '/actions/:guidOrSlug/gateway_payload',
      {
        schema: {
          'x-right': 'run',
          tags,
          params: guidOrSlugParams,
          body: gatewayPayloadBody,
          response: { 200: gatewayPayloadResponse },
        },
      },
      async (request, reply) => {
        const payload = await runs.gatewayPayload(
          callerOf(workspaceOf(request)),
          request.params.guidOrSlug,
          runInputFromWire(request.body),
          bearerToken(request)!,
        );
        // Holds the provider key: never cached, never logged (docs/api.md#runs).
        reply.header('cache-control', 'no-store');
        return payload;
      },
    );
  };
}
