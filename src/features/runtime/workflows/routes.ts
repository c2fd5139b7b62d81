import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guidParams } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse, removedResponse } from '../../../core/wire.js';
import { creatorOf, workspaceOf } from '../../../http/authentication.js';
import { byGuid } from '../../../http/by-guid.js';
import { runResultResponse } from '../runs/responses.js';
import { presentBlock, presentWorkflow } from './presenters.js';
import {
  blocksResponse,
  workflowOutputResponse,
  workflowResponse,
  workflowResultResponse,
  workflowTriggerResponse,
} from './responses.js';
import type { WorkflowRunner } from './runner.js';
import {
  blockResultParams,
  blocksBody,
  createWorkflowBody,
  playgroundBody,
  renameWorkflowBody,
  runParams,
  triggerBody,
} from './schemas.js';
import type { WorkflowService } from './service.js';

export function workflowRoutes(workflows: WorkflowService, runner: WorkflowRunner): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['workflows'];

    app.post(
      '/workflows',
      { schema: { 'x-right': 'write', tags, body: createWorkflowBody, response: { 201: workflowResponse } } },
      async (request, reply) => {
        const caller = workspaceOf(request);
        return reply
          .status(201)
          .send(presentWorkflow(await workflows.create(caller.id, creatorOf(request), request.body)));
      },
    );

    app.get(
      '/workflows',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery,
          response: { 200: listResponse(workflowResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await workflows.list(workspaceOf(request).id, request.query);
        return listEnvelope(rows.map(presentWorkflow), total, request.query);
      },
    );

    app.get(
      '/apps/:guid/workflows',
      {
        schema: {
          'x-right': 'read',
          tags,
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: listResponse(workflowResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await workflows.list(
          workspaceOf(request).id,
          request.query,
          request.params.guid,
        );
        return listEnvelope(rows.map(presentWorkflow), total, request.query);
      },
    );

    app.post(
      '/workflows/playground',
      {
        schema: { 'x-right': 'run', tags, body: playgroundBody, response: { 200: workflowTriggerResponse } },
      },
      async (request) => {
        return runner.playground(workspaceOf(request).id, request.body);
      },
    );

    app.get(
      '/workflows/:guid',
      byGuid('read', tags, { response: workflowResponse }, async (workspaceId, guid) =>
        presentWorkflow(await workflows.require(workspaceId, guid)),
      ),
    );

    app.put(
      '/workflows/:guid',
      byGuid(
        'write',
        tags,
        { body: renameWorkflowBody, response: workflowResponse },
        async (workspaceId, guid, body) =>
          presentWorkflow(await workflows.rename(workspaceId, guid, body.name)),
      ),
    );

    app.delete(
      '/workflows/:guid',
      { schema: { 'x-right': 'write', tags, params: guidParams, response: { 200: removedResponse } } },
      async (request) => {
        const removed = await workflows.remove(workspaceOf(request).id, request.params.guid);
        return { guid: removed.id, deleted: true as const };
      },
    );

    app.get(
      '/workflows/:guid/blocks',
      { schema: { 'x-right': 'read', tags, params: guidParams, response: { 200: blocksResponse } } },
      async (request) => {
        const blocks = await workflows.blocks(workspaceOf(request).id, request.params.guid);
        return { blocks: blocks.map(presentBlock) };
      },
    );

    app.put(
      '/workflows/:guid/blocks',
      byGuid(
        'write',
        tags,
        { body: blocksBody, response: blocksResponse },
        async (workspaceId, guid, body) => ({
          blocks: (await workflows.setBlocks(workspaceId, guid, body.blocks)).map(presentBlock),
        }),
      ),
    );

    app.post(
      '/workflows/:guid/trigger',
      byGuid(
        'run',
        tags,
        { body: triggerBody, response: workflowTriggerResponse },
        async (workspaceId, guid, body) => runner.trigger(workspaceId, guid, body.input),
      ),
    );

    app.get(
      '/workflows/:guid/result/:runGuid',
      {
        schema: {
          'x-right': 'read_runs',
          tags,
          params: runParams,
          response: { 200: workflowResultResponse },
        },
      },
      async (request) => {
        return runner.result(workspaceOf(request).id, request.params.guid, request.params.runGuid);
      },
    );

    app.get(
      '/workflows/:guid/result/:runGuid/dataset',
      {
        schema: {
          'x-right': 'read_runs',
          tags,
          params: runParams,
          response: { 200: workflowOutputResponse },
        },
      },
      async (request) => {
        return runner.dataset(workspaceOf(request).id, request.params.guid, request.params.runGuid);
      },
    );

    app.get(
      '/workflows/:guid/result/:runGuid/blocks/:blockGuid',
      {
        schema: {
          'x-right': 'read_runs',
          tags,
          params: blockResultParams,
          response: { 200: runResultResponse },
        },
      },
      async (request) => {
        const { guid, runGuid, blockGuid } = request.params;
        return runner.blockResult(workspaceOf(request).id, guid, runGuid, blockGuid);
      },
    );
  };
}
