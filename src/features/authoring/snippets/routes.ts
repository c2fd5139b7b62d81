import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse, removedResponse } from '../../../core/wire.js';
import { creatorOf, workspaceOf } from '../../../http/authentication.js';
import { removed } from '../../../http/by-guid.js';
import { presentDependent, presentSnippet, presentSnippetVersion } from './presenters.js';
import { snippetDependentResponse, snippetResponse, snippetVersionResponse } from './responses.js';
import { createSnippetBody, snippetListQuery, snippetParams, updateSnippetBody } from './schemas.js';
import type { SnippetService } from './service.js';

export function snippetRoutes(snippets: SnippetService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['snippets'];

    app.post(
      '/snippets',
      { schema: { 'x-right': 'write', tags, body: createSnippetBody, response: { 201: snippetResponse } } },
      async (request, reply) => {
        const created = await snippets.create(workspaceOf(request).id, request.body, creatorOf(request));
        return reply.status(201).send(presentSnippet(created));
      },
    );

    app.get(
      '/snippets',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery.extend(snippetListQuery.shape),
          response: { 200: listResponse(snippetResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await snippets.list(
          workspaceOf(request).id,
          request.query,
          request.query.folder,
        );
        return listEnvelope(rows.map(presentSnippet), total, request.query);
      },
    );

    app.get(
      '/snippets/:guidOrName',
      { schema: { 'x-right': 'read', tags, params: snippetParams, response: { 200: snippetResponse } } },
      async (request) =>
        presentSnippet(await snippets.get(workspaceOf(request).id, request.params.guidOrName)),
    );

    app.put(
      '/snippets/:guidOrName',
      {
        schema: {
          'x-right': 'write',
          tags,
          description:
            'A changed `content` makes exactly one new version; `folder` and `description` make none.',
          params: snippetParams,
          body: updateSnippetBody,
          response: { 200: snippetResponse },
        },
      },
      async (request) => {
        const { base_version, ...changes } = request.body;
        const { snippet } = await snippets.update(
          workspaceOf(request).id,
          request.params.guidOrName,
          { ...changes, baseVersion: base_version },
          creatorOf(request),
        );
        return presentSnippet(snippet);
      },
    );

    app.delete(
      '/snippets/:guidOrName',
      { schema: { 'x-right': 'write', tags, params: snippetParams, response: { 200: removedResponse } } },
      async (request) => {
        const gone = await snippets.remove(workspaceOf(request).id, request.params.guidOrName);
        return removed(gone.snippet.id);
      },
    );

    app.get(
      '/snippets/:guidOrName/versions',
      {
        schema: {
          'x-right': 'read',
          tags,
          params: snippetParams,
          querystring: paginationQuery,
          response: { 200: listResponse(snippetVersionResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await snippets.versions(
          workspaceOf(request).id,
          request.params.guidOrName,
          request.query,
        );
        return listEnvelope(rows.map(presentSnippetVersion), total, request.query);
      },
    );

    app.get(
      '/snippets/:guidOrName/dependents',
      {
        schema: {
          'x-right': 'read',
          tags,
          description:
            'The Actions whose latest version includes the snippet, and the snippet version each pinned',
          params: snippetParams,
          response: { 200: z.array(snippetDependentResponse) },
        },
      },
      async (request) =>
        (await snippets.dependents(workspaceOf(request).id, request.params.guidOrName)).map(presentDependent),
    );
  };
}
