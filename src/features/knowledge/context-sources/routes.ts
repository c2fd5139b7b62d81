import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guidParams } from '../../../core/guid.js';
import { messageResponse, successResponse } from '../../../core/wire.js';
import { creatorOf, workspaceOf } from '../../../http/authentication.js';
import { presentContextSource } from './presenters.js';
import { addedFilesResponse, contextSourceResponse } from './responses.js';
import {
  addFilesBody,
  contextSourceParams,
  createSourceBody,
  processBatchBody,
  processBody,
  replaceSourceBody,
  sourceContextParams,
} from './schemas.js';
import type { ContextSourceService } from './service.js';

export function contextSourceRoutes(sources: ContextSourceService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['context sources'];
    const base = '/contexts/:contextGuid/context_sources';

    // docs/api.md#how-the-parts-behave: a bare array, no pagination or filters.
    app.get(
      base,
      {
        schema: {
          'x-right': 'read',
          tags,
          params: sourceContextParams,
          response: { 200: z.array(contextSourceResponse) },
        },
      },
      async (request) => {
        return (await sources.list(workspaceOf(request).id, request.params.contextGuid)).map(
          presentContextSource,
        );
      },
    );

    app.post(
      base,
      {
        schema: {
          'x-right': 'write',
          tags,
          params: sourceContextParams,
          body: createSourceBody,
          response: { 201: contextSourceResponse },
        },
      },
      async (request, reply) => {
        const caller = workspaceOf(request);
        const created = await sources.create(
          caller.id,
          creatorOf(request),
          request.params.contextGuid,
          request.body.url,
          request.body.name,
        );
        return reply.status(201).send(presentContextSource(created));
      },
    );

    app.get(
      `${base}/:guid`,
      {
        schema: {
          'x-right': 'read',
          tags,
          params: contextSourceParams,
          response: { 200: contextSourceResponse },
        },
      },
      async (request) => {
        const { contextGuid, guid } = request.params;
        return presentContextSource(await sources.require(workspaceOf(request).id, contextGuid, guid));
      },
    );

    app.put(
      `${base}/:guid`,
      {
        schema: {
          'x-right': 'write',
          tags,
          params: contextSourceParams,
          body: replaceSourceBody,
          response: { 200: contextSourceResponse },
        },
      },
      async (request) => {
        const { contextGuid, guid } = request.params;
        return presentContextSource(
          await sources.replace(workspaceOf(request).id, contextGuid, guid, request.body),
        );
      },
    );

    app.delete(
      `${base}/:guid`,
      {
        schema: { 'x-right': 'write', tags, params: contextSourceParams, response: { 200: successResponse } },
      },
      async (request) => {
        const { contextGuid, guid } = request.params;
        await sources.remove(workspaceOf(request).id, contextGuid, guid);
        return { status: 'success' as const };
      },
    );

    app.post(
      '/context_sources/process_batch',
      { schema: { 'x-right': 'write', tags, body: processBatchBody, response: { 200: messageResponse } } },
      async (request) => {
        await sources.processBatch(workspaceOf(request).id, request.body.sources);
        return { msg: 'success' };
      },
    );

    app.post(
      '/context_sources/:guid/process',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: guidParams,
          body: processBody,
          response: { 200: messageResponse },
        },
      },
      async (request) => {
        await sources.process(workspaceOf(request).id, request.params.guid, request.body.contextGuid);
        return { msg: 'success' };
      },
    );

    app.post(
      '/contexts/:guid/add_files',
      {
        schema: {
          'x-right': 'write',
          tags,
          params: guidParams,
          body: addFilesBody,
          response: { 200: addedFilesResponse },
        },
      },
      async (request) => {
        const caller = workspaceOf(request);
        return sources.addFiles(caller.id, creatorOf(request), request.params.guid, request.body.files);
      },
    );
  };
}
