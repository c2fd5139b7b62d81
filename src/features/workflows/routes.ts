import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guidParams } from '../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../core/pagination.js';
import { listResponse, removedResponse } from '../../core/wire.js';
import { creatorOf, workspaceOf } from '../../http/authentication.js';
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
      { schema: { 'x-right': 'read', tags, params: guidParams, response: { 200: workflowResponse } } },
      async (request) => {
        return presentWorkflow(await workflows.require(workspaceOf(request).id, request.params.guid));
      },
    );

    app.put(
      '/workflows/:guid',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: guidParams,
          body: renameWorkflowBody,
          response: { 200: workflowResponse },
        },
      },
      async (request) =>
        presentWorkflow(
          await workflows.rename(workspaceOf(request).id, request.params.guid, request.body.name),
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
      {
        schema: {
          'x-right': 'write',
          tags,
          params: guidParams,
          body: blocksBody,
          response: { 200: blocksResponse },
        },
      },
      async (request) => ({
        blocks: (
          await workflows.setBlocks(workspaceOf(request).id, request.params.guid, request.body.blocks)
        ).map(presentBlock),
      }),
    );

    app.post(
      '/workflows/:guid/trigger',
      {
        schema: {
          'x-right': 'run',
          tags,
          params: guidParams,
          body: triggerBody,
          response: { 200: workflowTriggerResponse },
        },
      },
      async (request) => runner.trigger(workspaceOf(request).id, request.params.guid, request.body.input),
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
