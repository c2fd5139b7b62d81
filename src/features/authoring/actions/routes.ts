import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guidParams } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse } from '../../../core/wire.js';
import { ForbiddenError } from '../../../errors.js';
import { creatorOf, principalOf, workspaceOf } from '../../../http/authentication.js';
import { describeChange } from '../../../http/authorization.js';
import { bareList } from '../../../http/bare-list.js';
import { byGuid, removalByGuid } from '../../../http/by-guid.js';
import { type ContextService, presentContext } from '../../knowledge/contexts/index.js';
import { contextResponse } from '../../knowledge/contexts/responses.js';
import type { AppService } from '../apps/index.js';
import { presentSkill, type SkillService } from '../skills/index.js';
import { skillResponse } from '../skills/responses.js';
import {
  actionChangesFromWire,
  newActionFromWire,
  presentAction,
  presentActionVersion,
  presentListedAction,
  versionDiff,
} from './presenters.js';
import { actionResponse, actionVersionResponse, listedActionResponse } from './responses.js';
import {
  actionContextsBody,
  actionListQuery,
  actionSkillsBody,
  createActionBody,
  deployBody,
  guidOrSlugParams,
  updateActionBody,
} from './schemas.js';
import type { ActionService, Saver } from './service.js';

/** Who saves through a request, and whether they may make the changes a release gate watches. */
function saverOf(request: FastifyRequest): Saver {
  return { by: creatorOf(request), manages: principalOf(request).rights.has('manage') };
}

/** Attached Skills and Contexts are read from, and shown as, their own features. */
export function actionRoutes(
  actions: ActionService,
  attachments: {
    skills: Pick<SkillService, 'findMany'>;
    contexts: Pick<ContextService, 'findManyWithState'>;
  },
): FastifyPluginAsyncZod {
  const attachedSkills = async (workspaceId: string, ids: string[]) =>
    (await attachments.skills.findMany(workspaceId, ids)).map(presentSkill);
  const attachedContexts = async (workspaceId: string, ids: string[]) =>
    (await attachments.contexts.findManyWithState(workspaceId, ids)).map(presentContext);

  return async (app) => {
    const tags = ['actions'];

    // The official JS SDK creates Actions at this path (docs/api.md#actions).
    app.post(
      '/actions/create',
      { schema: { 'x-right': 'write', tags, body: createActionBody, response: { 201: actionResponse } } },
      async (request, reply) => {
        return reply
          .status(201)
          .send(
            presentAction(
              await actions.create(
                workspaceOf(request).id,
                newActionFromWire(request.body),
                saverOf(request),
              ),
            ),
          );
      },
    );

    app.get(
      '/actions',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery.extend(actionListQuery.shape),
          response: { 200: listResponse(listedActionResponse) },
        },
      },
      async (request) => {
        const { query } = request;
        const { rows, total } = await actions.list(workspaceOf(request).id, query, {
          appId: query.app,
          text: query.q,
          folder: query.folder,
        });
        return listEnvelope(rows.map(presentListedAction), total, query);
      },
    );

    app.get(
      '/actions/:guidOrSlug',
      {
        schema: { 'x-right': 'read_runs', tags, params: guidOrSlugParams, response: { 200: actionResponse } },
      },
      async (request) => {
        return presentAction(await actions.get(workspaceOf(request).id, request.params.guidOrSlug));
      },
    );

    app.put(
      '/actions/:guid',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: guidParams,
          body: updateActionBody,
          response: { 200: actionResponse },
        },
      },
      async (request) => {
        const workspaceId = workspaceOf(request).id;
        const before = await actions.get(workspaceId, request.params.guid);
        const after = await actions.update(
          workspaceId,
          request.params.guid,
          actionChangesFromWire(request.body),
          saverOf(request),
        );
        // The audit log shows what the new version changed, before and after, not only what was sent.
        describeChange(request, {
          ...request.body,
          version_diff: versionDiff(before.version, after.version),
        });
        return presentAction(after);
      },
    );

    app.delete(
      '/actions/:guid',
      removalByGuid('write', tags, (workspaceId, guid, request) =>
        actions.remove(workspaceId, guid, saverOf(request)),
      ),
    );

    app.post(
      '/actions/:guid/deploy',
      {
        schema: {
          'x-right': 'deploy',
          tags,
          params: guidParams,
          body: deployBody,
          response: { 200: actionResponse },
        },
      },
      async (request) => {
        if (request.body.force && !principalOf(request).rights.has('manage'))
          throw new ForbiddenError('force: only an admin or an owner deploys past a release gate');
        const { action, forcedPast } = await actions.deploy(
          workspaceOf(request).id,
          request.params.guid,
          request.body,
          creatorOf(request),
        );
        // The record of a forced deploy names the conditions it went past.
        if (forcedPast.length > 0)
          describeChange(request, {
            ...request.body,
            forced_past: forcedPast.map(({ met: _met, ...unmet }) => unmet),
          });
        return presentAction(action);
      },
    );

    app.get(
      '/actions/:guid/versions',
      {
        schema: {
          'x-right': 'read',
          tags,
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: listResponse(actionVersionResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await actions.versions(
          workspaceOf(request).id,
          request.params.guid,
          request.query,
        );
        return listEnvelope(rows.map(presentActionVersion), total, request.query);
      },
    );

    app.post(
      '/actions/:guid/disable',
      byGuid('write', tags, { response: actionResponse }, async (workspaceId, guid) =>
        presentAction(await actions.setDisabled(workspaceId, guid, true)),
      ),
    );

    // The official SDK's getSkills / updateSkills and getContext / updateContext: the latest version's
    // attachments as bare arrays. A change saves a new version, like PUT /v1/actions/{guid}; it deploys nothing.
    app.get(
      '/actions/:guid/skills',
      { schema: { 'x-right': 'read', tags, params: guidParams, response: { 200: z.array(skillResponse) } } },
      async (request) => {
        const workspaceId = workspaceOf(request).id;
        const action = await actions.get(workspaceId, request.params.guid);
        return attachedSkills(workspaceId, action.version.skills);
      },
    );

    app.put(
      '/actions/:guid/skills',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: guidParams,
          body: actionSkillsBody,
          response: { 200: z.array(skillResponse) },
        },
      },
      async (request) => {
        const workspaceId = workspaceOf(request).id;
        const action = await actions.update(
          workspaceId,
          request.params.guid,
          { version: { skills: request.body.skills } },
          saverOf(request),
        );
        return attachedSkills(workspaceId, action.version.skills);
      },
    );

    app.get(
      '/actions/:guid/context',
      {
        schema: { 'x-right': 'read', tags, params: guidParams, response: { 200: z.array(contextResponse) } },
      },
      async (request) => {
        const workspaceId = workspaceOf(request).id;
        const action = await actions.get(workspaceId, request.params.guid);
        return attachedContexts(workspaceId, action.version.contexts);
      },
    );

    app.put(
      '/actions/:guid/context',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: guidParams,
          body: actionContextsBody,
          response: { 200: z.array(contextResponse) },
        },
      },
      async (request) => {
        const workspaceId = workspaceOf(request).id;
        const contexts = request.body.context ?? request.body.contexts;
        const action = await actions.update(
          workspaceId,
          request.params.guid,
          { version: { contexts } },
          saverOf(request),
        );
        return attachedContexts(workspaceId, action.version.contexts);
      },
    );

    app.post(
      '/actions/:guid/enable',
      byGuid('write', tags, { response: actionResponse }, async (workspaceId, guid) =>
        presentAction(await actions.setDisabled(workspaceId, guid, false)),
      ),
    );
  };
}

/** An App's Actions, under the App's path. */
export function appActionListRoute(actions: ActionService, apps: AppService): FastifyPluginAsyncZod {
  return async (app) => {
    // A bare array: the official SDK's apps.getActions reads one (docs/api.md#actions).
    app.get(
      '/apps/:guid/actions',
      {
        schema: {
          'x-right': 'read',
          tags: ['apps'],
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: z.array(actionResponse) },
        },
      },
      async (request, reply) => {
        const workspaceId = workspaceOf(request).id;
        await apps.require(workspaceId, request.params.guid);
        const { rows, total } = await actions.list(workspaceId, request.query, {
          appId: request.params.guid,
        });
        return bareList(reply, rows.map(presentAction), total);
      },
    );
  };
}
