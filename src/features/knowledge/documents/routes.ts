import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listEnvelope } from '../../../core/pagination.js';
import { listResponse, successResponse } from '../../../core/wire.js';
import { workspaceOf } from '../../../http/authentication.js';
import { recordChangeOf } from '../../../http/authorization.js';
import { presentAddedDocuments, presentDocument } from './presenters.js';
import { addedDocumentsResponse, documentResponse } from './responses.js';
import {
  addDocumentBody,
  contextParams,
  deleteDocumentsBody,
  documentListQuery,
  documentParams,
  updateDocumentBody,
} from './schemas.js';
import type { DocumentService } from './service.js';

export function documentRoutes(documents: DocumentService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['documents'];
    const base = '/contexts/:contextGuid/documents';

    app.post(
      base,
      {
        schema: {
          'x-right': 'write',
          // The split of a large text (seconds) runs before the transaction that stores it.
          'x-audit': 'in-handler',
          tags,
          params: contextParams,
          body: addDocumentBody,
          response: { 200: addedDocumentsResponse },
        },
      },
      async (request) => {
        const docs = await documents.addWithin(
          workspaceOf(request).id,
          request.params.contextGuid,
          request.body,
          recordChangeOf(request),
        );
        return presentAddedDocuments(docs);
      },
    );

    // The official SDK lists and clears Documents at the singular path (docs/sdk-compatibility.md): the same handlers.
    for (const path of [base, '/context/:contextGuid/documents']) {
      const hide = path !== base;
      app.get(
        path,
        {
          schema: {
            'x-right': 'read',
            tags,
            params: contextParams,
            querystring: documentListQuery,
            hide,
            response: { 200: listResponse(documentResponse) },
          },
        },
        async (request) => {
          const { rows, total } = await documents.list(
            workspaceOf(request).id,
            request.params.contextGuid,
            request.query,
            request.query.query,
          );
          return listEnvelope(rows.map(presentDocument), total, request.query);
        },
      );

      // docs/api.md#how-the-parts-behave: DELETE …/documents/ with an optional legacy `filter` removes all (or the matching) Documents.
      app.delete(
        path,
        {
          schema: {
            'x-right': 'write',
            tags,
            params: contextParams,
            body: deleteDocumentsBody,
            hide,
            response: { 200: successResponse },
          },
        },
        async (request) => {
          await documents.removeAll(
            workspaceOf(request).id,
            request.params.contextGuid,
            request.body?.filter,
          );
          return { status: 'success' as const };
        },
      );
    }

    app.get(
      `${base}/:guid`,
      { schema: { 'x-right': 'read', tags, params: documentParams, response: { 200: documentResponse } } },
      async (request) => {
        const { contextGuid, guid } = request.params;
        return presentDocument(await documents.require(workspaceOf(request).id, contextGuid, guid));
      },
    );

    app.put(
      `${base}/:guid`,
      {
        schema: {
          'x-right': 'write',
          tags,
          params: documentParams,
          body: updateDocumentBody,
          response: { 200: documentResponse },
        },
      },
      async (request) => {
        const { contextGuid, guid } = request.params;
        return presentDocument(
          await documents.update(workspaceOf(request).id, contextGuid, guid, request.body),
        );
      },
    );

    app.post(
      `${base}/:guid/embed`,
      { schema: { 'x-right': 'write', tags, params: documentParams, response: { 200: successResponse } } },
      async (request) => {
        const { contextGuid, guid } = request.params;
        await documents.embed(workspaceOf(request).id, contextGuid, guid);
        return { status: 'success' as const };
      },
    );

    app.delete(
      `${base}/:guid`,
      { schema: { 'x-right': 'write', tags, params: documentParams, response: { 200: successResponse } } },
      async (request) => {
        const { contextGuid, guid } = request.params;
        await documents.remove(workspaceOf(request).id, contextGuid, guid);
        return { status: 'success' as const };
      },
    );
  };
}
