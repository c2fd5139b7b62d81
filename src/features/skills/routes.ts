import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guidParams } from '../../core/guid.js';
import { listEnvelope, paginationQuery, wholeList } from '../../core/pagination.js';
import { listResponse, messageResponse, removedResponse } from '../../core/wire.js';
import { creatorOf, workspaceOf } from '../../http/authentication.js';
import { removed } from '../../http/removal.js';
import { presentSkill, presentSkillType } from './presenters.js';
import { skillResponse, skillTypeResponse } from './responses.js';
import { createSkillBody, renameSkillBody, skillPromptBody } from './schemas.js';
import type { SkillService } from './service.js';

export function skillRoutes(skills: SkillService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['skills'];

    app.get(
      '/skills/types',
      { schema: { 'x-right': 'read', tags, response: { 200: listResponse(skillTypeResponse) } } },
      async () => {
        return wholeList(skills.types().map(presentSkillType));
      },
    );

    app.post(
      '/skills',
      { schema: { 'x-right': 'write', tags, body: createSkillBody, response: { 201: skillResponse } } },
      async (request, reply) => {
        const caller = workspaceOf(request);
        return reply
          .status(201)
          .send(presentSkill(await skills.create(caller.id, creatorOf(request), request.body)));
      },
    );

    app.get(
      '/skills',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery,
          response: { 200: listResponse(skillResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await skills.list(workspaceOf(request).id, request.query);
        return listEnvelope(rows.map(presentSkill), total, request.query);
      },
    );

    app.get(
      '/skills/:guid',
      { schema: { 'x-right': 'read', tags, params: guidParams, response: { 200: skillResponse } } },
      async (request) => {
        return presentSkill(await skills.require(workspaceOf(request).id, request.params.guid));
      },
    );

    app.put(
      '/skills/:guid',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: guidParams,
          body: renameSkillBody,
          response: { 200: skillResponse },
        },
      },
      async (request) => {
        return presentSkill(
          await skills.rename(workspaceOf(request).id, request.params.guid, request.body.name),
        );
      },
    );

    app.delete(
      '/skills/:guid',
      { schema: { 'x-right': 'write', tags, params: guidParams, response: { 200: removedResponse } } },
      async (request) => {
        await skills.remove(workspaceOf(request).id, request.params.guid);
        return removed(request.params.guid);
      },
    );

    // docs/api.md writes the parameter as {skill}; it is the Skill's GUID.
    app.post(
      '/skills/:guid/prompt',
      {
        schema: {
          'x-right': 'run',
          tags,
          params: guidParams,
          body: skillPromptBody,
          response: { 200: messageResponse },
        },
      },
      async (request) => ({
        msg: await skills.prompt(workspaceOf(request).id, request.params.guid, request.body.prompt),
      }),
    );
  };
}
