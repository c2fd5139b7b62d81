import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guid } from '../../../core/wire.js';
import { creatorOf, principalOf, workspaceOf } from '../../../http/authentication.js';
import type { ActionService } from '../../authoring/actions/index.js';
import { presentApprovals, presentGate } from './presenters.js';
import { approvalsResponse, gateCheckResponse, gateResponse } from './responses.js';
import { approvalParams, checkQuery, gateParams, setGateBody } from './schemas.js';
import type { ReleaseGateService } from './service.js';

export function releaseGateRoutes(
  gates: ReleaseGateService,
  actions: Pick<ActionService, 'checkGate'>,
): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['release gates'];

    app.put(
      '/actions/:guid/gates/:environment',
      {
        schema: {
          'x-right': 'manage',
          tags,
          params: gateParams,
          body: setGateBody,
          response: { 200: gateResponse },
        },
      },
      async (request) => {
        const { guid: actionId, environment } = request.params;
        return presentGate(
          await gates.set(workspaceOf(request).id, actionId, environment, request.body, creatorOf(request)),
        );
      },
    );

    app.get(
      '/actions/:guid/gates/:environment',
      { schema: { 'x-right': 'read', tags, params: gateParams, response: { 200: gateResponse } } },
      async (request) =>
        presentGate(
          await gates.get(workspaceOf(request).id, request.params.guid, request.params.environment),
        ),
    );

    app.delete(
      '/actions/:guid/gates/:environment',
      {
        schema: {
          'x-right': 'manage',
          tags,
          params: gateParams,
          response: {
            200: z.strictObject({ action: guid, environment: z.string(), deleted: z.literal(true) }),
          },
        },
      },
      async (request) => {
        const { guid: actionId, environment } = request.params;
        await gates.remove(workspaceOf(request).id, actionId, environment);
        return { action: actionId, environment, deleted: true as const };
      },
    );

    app.get(
      '/actions/:guid/gates/:environment/check',
      {
        schema: {
          'x-right': 'read',
          tags,
          params: gateParams,
          querystring: checkQuery,
          response: { 200: gateCheckResponse },
        },
      },
      async (request) => {
        const { guid: actionId, environment } = request.params;
        const { version } = request.query;
        const conditions = await actions.checkGate(workspaceOf(request).id, actionId, {
          version,
          environment,
        });
        return {
          action: actionId,
          environment,
          version,
          gated: conditions !== undefined,
          passed: (conditions ?? []).every((condition) => condition.met),
          conditions: conditions ?? [],
        };
      },
    );

    app.post(
      '/actions/:guid/versions/:version/approvals',
      {
        schema: {
          'x-right': 'manage',
          tags,
          params: approvalParams,
          response: { 201: approvalsResponse },
        },
      },
      async (request, reply) => {
        const { guid: actionId, version } = request.params;
        const approvals = await gates.approve(
          workspaceOf(request).id,
          actionId,
          version,
          principalOf(request),
        );
        return reply.status(201).send(presentApprovals(actionId, version, approvals));
      },
    );

    app.get(
      '/actions/:guid/versions/:version/approvals',
      { schema: { 'x-right': 'read', tags, params: approvalParams, response: { 200: approvalsResponse } } },
      async (request) => {
        const { guid: actionId, version } = request.params;
        return presentApprovals(
          actionId,
          version,
          await gates.approvals(workspaceOf(request).id, actionId, version),
        );
      },
    );

    app.delete(
      '/actions/:guid/versions/:version/approvals',
      { schema: { 'x-right': 'manage', tags, params: approvalParams, response: { 200: approvalsResponse } } },
      async (request) => {
        const { guid: actionId, version } = request.params;
        const approvals = await gates.withdraw(
          workspaceOf(request).id,
          actionId,
          version,
          principalOf(request),
        );
        return presentApprovals(actionId, version, approvals);
      },
    );
  };
}
