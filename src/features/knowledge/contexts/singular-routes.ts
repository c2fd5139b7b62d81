import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guidParams } from '../../../core/guid.js';
import { messageResponse, successResponse } from '../../../core/wire.js';
import { ValidationError } from '../../../errors.js';
import { creatorOf, workspaceOf } from '../../../http/authentication.js';
import { recordChangeOf } from '../../../http/authorization.js';
import type { ContextSourceService } from '../context-sources/index.js';
import { addFilesBody } from '../context-sources/index.js';
import {
  contextParams,
  type DocumentService,
  documentParams,
  presentAddedDocuments,
  presentDocument,
} from '../documents/index.js';
import { addedDocumentsResponse, documentResponse } from '../documents/responses.js';
import type { FileService } from '../files/index.js';
import { presignedUploadResponse } from '../files/responses.js';
import type { ContextPrompt } from './context-prompt.js';
import { presentContext, presentContextPromptAnswer } from './presenters.js';
import {
  contextResponse,
  contextStatusResponse,
  contextWithFilesResponse,
  sdkContextPromptResponse,
} from './responses.js';
import { updateContextBody } from './schemas.js';
import type { ContextService } from './service.js';
import {
  embedContextBody,
  presignBody,
  sdkAddDocumentBody,
  sdkContextPromptBody,
  sdkCreateContextBody,
  sdkUpdateDocumentBody,
} from './singular-schemas.js';

/**
 * The singular `/v1/context` routes of the official SDK (`@kluai/core` `contexts`, docs/sdk-compatibility.md): the
 * same Contexts, Documents and Context Sources as the plural routes, with the SDK's paths, field
 * names and answers. Hidden from the OpenAPI document: new integrations use the plural routes.
 */
export function singularContextRoutes(services: {
  contexts: ContextService;
  documents: DocumentService;
  sources: ContextSourceService;
  files: FileService;
  prompt: ContextPrompt;
}): FastifyPluginAsyncZod {
  const { contexts, documents, sources, files, prompt } = services;
  return async (app) => {
    const schema = { tags: ['contexts'], hide: true };

    app.post(
      '/context',
      {
        schema: {
          'x-right': 'write',
          ...schema,
          body: sdkCreateContextBody,
          response: { 201: contextResponse },
        },
      },
      async (request, reply) => {
        const caller = workspaceOf(request);
        const { files: urls, type: _type, loader: _loader, filter: _filter, ...fields } = request.body;
        // The files are checked first, so a bad URL leaves no Context behind.
        if (urls?.length) await sources.checkFiles(caller.id, urls);
        const created = await contexts.create(caller.id, creatorOf(request), fields);
        if (urls?.length) await sources.addFiles(caller.id, creatorOf(request), created.id, urls);
        return reply.status(201).send(presentContext(await contexts.requireWithState(caller.id, created.id)));
      },
    );

    app.get(
      '/context/:guid',
      { schema: { 'x-right': 'read', ...schema, params: guidParams, response: { 200: contextResponse } } },
      async (request) => {
        return presentContext(await contexts.requireWithState(workspaceOf(request).id, request.params.guid));
      },
    );

    app.put(
      '/context/:guid',
      {
        schema: {
          'x-right': 'write',
          ...schema,
          params: guidParams,
          body: updateContextBody,
          response: { 200: contextResponse },
        },
      },
      async (request) =>
        presentContext(await contexts.update(workspaceOf(request).id, request.params.guid, request.body)),
    );

    app.delete(
      '/context/:guid',
      { schema: { 'x-right': 'write', ...schema, params: guidParams, response: { 200: successResponse } } },
      async (request) => {
        await contexts.remove(workspaceOf(request).id, request.params.guid);
        return { status: 'success' as const };
      },
    );

    // contexts.getStatus: PENDING while Documents are embedded or Context Sources indexed, then SUCCESS.
    app.post(
      '/context/:guid/status',
      {
        schema: {
          'x-right': 'read',
          ...schema,
          params: guidParams,
          response: { 200: contextStatusResponse },
        },
      },
      async (request) => {
        const context = await contexts.requireWithState(workspaceOf(request).id, request.params.guid);
        return {
          status: context.processed ? ('SUCCESS' as const) : ('PENDING' as const),
          processed: context.processed,
        };
      },
    );

    // contexts.embed: every Document of the Context is embedded again, in the background.
    app.post(
      '/context/embed',
      {
        schema: { 'x-right': 'write', ...schema, body: embedContextBody, response: { 200: messageResponse } },
      },
      async (request) => {
        const workspaceId = workspaceOf(request).id;
        await contexts.require(workspaceId, request.body.guid);
        await documents.reembedContext(workspaceId, request.body.guid);
        return { msg: 'Embedding queued for every Document of the Context' };
      },
    );

    // contexts.getPresignedUrl / uploadFile: a form upload whose object_url add_files takes.
    app.post(
      '/context/presign',
      {
        schema: {
          'x-right': 'write',
          ...schema,
          body: presignBody,
          response: { 200: presignedUploadResponse },
        },
      },
      async (request) => {
        return files.presign(workspaceOf(request).id, request.body.file_name);
      },
    );

    // contexts.uploadContextFiles: the Context Sources are made and processed; answers the Context.
    app.post(
      '/context/:guid/add_files',
      {
        schema: {
          'x-right': 'write',
          ...schema,
          params: guidParams,
          body: addFilesBody,
          response: { 200: contextWithFilesResponse },
        },
      },
      async (request) => {
        const caller = workspaceOf(request);
        const { created } = await sources.addFiles(
          caller.id,
          creatorOf(request),
          request.params.guid,
          request.body.files,
        );
        return {
          ...presentContext(await contexts.requireWithState(caller.id, request.params.guid)),
          created,
        };
      },
    );

    const documentsPath = '/context/:contextGuid/documents';

    app.post(
      documentsPath,
      {
        schema: {
          'x-right': 'write',
          'x-audit': 'in-handler',
          ...schema,
          params: contextParams,
          body: sdkAddDocumentBody,
          response: { 200: addedDocumentsResponse },
        },
      },
      async (request) => {
        const { meta_data, metadata, ...fields } = request.body;
        const docs = await documents.addWithin(
          workspaceOf(request).id,
          request.params.contextGuid,
          { ...fields, metadata: metadata ?? meta_data },
          recordChangeOf(request),
        );
        return presentAddedDocuments(docs);
      },
    );

    // Listing and clearing Documents at this path are the documents feature's own routes.

    app.put(
      `${documentsPath}/:guid`,
      {
        schema: {
          'x-right': 'write',
          ...schema,
          params: documentParams,
          body: sdkUpdateDocumentBody,
          response: { 200: documentResponse },
        },
      },
      async (request) => {
        const workspaceId = workspaceOf(request).id;
        const { contextGuid, guid } = request.params;
        const { content, metadata, meta_data } = request.body;
        if (request.body.guid !== undefined && request.body.guid !== guid) {
          throw new ValidationError('guid', 'names another Document than the path');
        }
        const stored =
          content === undefined ? await documents.require(workspaceId, contextGuid, guid) : undefined;
        const updated = await documents.update(workspaceId, contextGuid, guid, {
          content: content ?? stored!.content,
          metadata: metadata ?? meta_data,
        });
        return presentDocument(updated);
      },
    );

    // contexts.prompt: the Context in the body; `msg` is the SDK's name for the answer.
    app.post(
      '/context/prompt',
      {
        schema: {
          'x-right': 'search',
          ...schema,
          body: sdkContextPromptBody,
          response: { 200: sdkContextPromptResponse },
        },
      },
      async (request) => {
        const { context, ...input } = request.body;
        const answer = presentContextPromptAnswer(await prompt(workspaceOf(request).id, context, input));
        return { msg: answer.text, ...answer };
      },
    );
  };
}
