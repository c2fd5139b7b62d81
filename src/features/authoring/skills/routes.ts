import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listEnvelope, paginationQuery, wholeList } from '../../../core/pagination.js';
import { listResponse, messageResponse } from '../../../core/wire.js';
import { creatorOf, workspaceOf } from '../../../http/authentication.js';
import { byGuid, removalByGuid } from '../../../http/by-guid.js';
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
      byGuid('read', tags, { response: skillResponse }, async (workspaceId, guid) =>
        presentSkill(await skills.require(workspaceId, guid)),
      ),
    );

    app.put(
      '/skills/:guid',
      byGuid(
        'write',
        tags,
        { body: renameSkillBody, response: skillResponse },
        async (workspaceId, guid, body) => presentSkill(await skills.rename(workspaceId, guid, body.name)),
      ),
    );

    app.delete(
      '/skills/:guid',
      removalByGuid('write', tags, (workspaceId, guid) => skills.remove(workspaceId, guid)),
    );

    // docs/api.md writes the parameter as {skill}; it is the Skill's GUID.
    app.post(
      '/skills/:guid/prompt',
      byGuid(
        'run',
        tags,
        { body: skillPromptBody, response: messageResponse },
        async (workspaceId, guid, body) => ({ msg: await skills.prompt(workspaceId, guid, body.prompt) }),
      ),
    );
  };
}
