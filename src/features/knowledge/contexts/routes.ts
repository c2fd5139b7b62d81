import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { guidParams } from '../../../core/guid.js';
import { listEnvelope, paginationQuery } from '../../../core/pagination.js';
import { listResponse, successResponse } from '../../../core/wire.js';
import { creatorOf, workspaceInPath, workspaceOf } from '../../../http/authentication.js';
import { bareList } from '../../../http/bare-list.js';
import { byGuid } from '../../../http/by-guid.js';
import type { ContextPrompt } from './context-prompt.js';
import { presentContext, presentContextPromptAnswer, presentHit } from './presenters.js';
import {
  contextPromptResponse,
  contextResponse,
  legacySearchResponse,
  searchHitResponse,
} from './responses.js';
import {
  contextPromptBody,
  createContextBody,
  type SearchInput,
  searchBody,
  updateContextBody,
} from './schemas.js';
import type { ContextSearch } from './search.js';
import type { ContextService } from './service.js';

/** A search body, current or legacy (docs/sdk-compatibility.md), as one search request. */
async function runSearch(
  contexts: ContextService,
  search: ContextSearch,
  workspaceId: string,
  contextId: string,
  body: SearchInput,
) {
  const context = await contexts.require(workspaceId, contextId);
  const hits = await search.searchContext(workspaceId, context, {
    text: body.prompt,
    limit: body.number_of_results,
    threshold: body.score ?? body.similarity_score,
    metadata: body.metadata_filter ?? body.metadata,
    legacyFilter: body.filter,
    mode: body.mode,
  });
  return hits.map(presentHit);
}

export function contextRoutes(
  contexts: ContextService,
  search: ContextSearch,
  prompt: ContextPrompt,
): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['contexts'];

    app.post(
      '/contexts',
      { schema: { 'x-right': 'write', tags, body: createContextBody, response: { 201: contextResponse } } },
      async (request, reply) => {
        const caller = workspaceOf(request);
        return reply
          .status(201)
          .send(presentContext(await contexts.create(caller.id, creatorOf(request), request.body)));
      },
    );

    app.get(
      '/contexts',
      {
        schema: {
          'x-right': 'read',
          tags,
          querystring: paginationQuery,
          response: { 200: listResponse(contextResponse) },
        },
      },
      async (request) => {
        const { rows, total } = await contexts.list(workspaceOf(request).id, request.query);
        return listEnvelope(rows.map(presentContext), total, request.query);
      },
    );

    app.get(
      '/contexts/:guid',
      byGuid('read', tags, { response: contextResponse }, async (workspaceId, guid) =>
        presentContext(await contexts.requireWithState(workspaceId, guid)),
      ),
    );

    app.put(
      '/contexts/:guid',
      byGuid(
        'write',
        tags,
        { body: updateContextBody, response: contextResponse },
        async (workspaceId, guid, body) => presentContext(await contexts.update(workspaceId, guid, body)),
      ),
    );

    app.delete(
      '/contexts/:guid',
      { schema: { 'x-right': 'write', tags, params: guidParams, response: { 200: successResponse } } },
      async (request) => {
        await contexts.remove(workspaceOf(request).id, request.params.guid);
        return { status: 'success' as const };
      },
    );

    app.post(
      '/contexts/:guid/search',
      {
        schema: {
          'x-right': 'search',
          tags,
          params: guidParams,
          body: searchBody,
          response: { 200: z.array(searchHitResponse) },
        },
      },
      async (request) =>
        runSearch(contexts, search, workspaceOf(request).id, request.params.guid, request.body),
    );

    // docs/sdk-compatibility.md: the singular path of older clients answers `{ data }`.
    app.post(
      '/context/:guid/search',
      {
        schema: {
          'x-right': 'search',
          tags,
          params: guidParams,
          body: searchBody,
          hide: true,
          response: { 200: legacySearchResponse },
        },
      },
      async (request) => ({
        data: await runSearch(contexts, search, workspaceOf(request).id, request.params.guid, request.body),
      }),
    );

    app.post(
      '/contexts/:guid/prompt',
      byGuid(
        'search',
        tags,
        { body: contextPromptBody, response: contextPromptResponse },
        async (workspaceId, guid, body) => presentContextPromptAnswer(await prompt(workspaceId, guid, body)),
      ),
    );
  };
}

/** docs/sdk-compatibility.md: `POST /context/{guid}/search` without the `/v1` prefix. */
export function unversionedContextSearchRoute(
  contexts: ContextService,
  search: ContextSearch,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/context/:guid/search',
      {
        schema: {
          'x-right': 'search',
          tags: ['contexts'],
          params: guidParams,
          body: searchBody,
          hide: true,
          response: { 200: legacySearchResponse },
        },
      },
      async (request) => ({
        data: await runSearch(contexts, search, workspaceOf(request).id, request.params.guid, request.body),
      }),
    );
  };
}

/**
 * The workspace's Contexts as a bare array under `/workspace/:guid/context` (the official SDK's
 * getContexts reads them so); skip and limit apply.
 */
export function workspaceContextListRoute(contexts: ContextService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/workspace/:guid/context',
      {
        schema: {
          'x-right': 'read',
          tags: ['workspaces'],
          params: guidParams,
          querystring: paginationQuery,
          response: { 200: z.array(contextResponse) },
        },
      },
      async (request, reply) => {
        const { rows, total } = await contexts.list(workspaceInPath(request), request.query);
        return bareList(reply, rows.map(presentContext), total);
      },
    );
  };
}
