import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guidParams } from '../../../core/guid.js';
import { ForbiddenError } from '../../../errors.js';
import { creatorOf, principalOf, workspaceOf } from '../../../http/authentication.js';
import { recordChangeOf } from '../../../http/authorization.js';
import { byGuid } from '../../../http/by-guid.js';
import { feedbackChangesFromWire, presentFeedback } from './presenters.js';
import { feedbackResponse } from './responses.js';
import { dataGuidParams, feedbackBody, legacyFeedbackBody, updateFeedbackBody } from './schemas.js';
import type { FeedbackService } from './service.js';

export function feedbackRoutes(feedback: FeedbackService): FastifyPluginAsyncZod {
  /**
   * A change of a feedback record: its author's own, unrecorded like the feedback itself; someone
   * else's only by an admin or an owner (moderation), and then an audit record.
   */
  async function changeOf<Result>(
    request: FastifyRequest<{ Params: { guid: string } }>,
    work: () => Promise<Result>,
  ): Promise<Result> {
    const stored = await feedback.get(workspaceOf(request).id, request.params.guid);
    if (stored.createdById === creatorOf(request)) return work();
    if (!principalOf(request).rights.has('manage'))
      throw new ForbiddenError('Only its author, an admin or an owner may change or delete this feedback');
    return recordChangeOf(request)(work);
  }

  return async (app) => {
    const tags = ['feedback'];

    app.post(
      '/feedback/:dataGuid',
      {
        schema: {
          'x-right': 'feedback',
          tags,
          params: dataGuidParams,
          body: feedbackBody,
          response: { 201: feedbackResponse },
        },
      },
      async (request, reply) => {
        const workspace = workspaceOf(request);
        const record = await feedback.create(
          workspace.id,
          creatorOf(request),
          request.params.dataGuid,
          request.body,
        );
        return reply.status(201).send(presentFeedback(record));
      },
    );

    // A feedback record by its own GUID (the official SDK's feedback.get / update / delete).
    app.get(
      '/feedback/:guid',
      byGuid('read', tags, { response: feedbackResponse }, async (workspaceId, guid) =>
        presentFeedback(await feedback.get(workspaceId, guid)),
      ),
    );

    app.put(
      '/feedback/:guid',
      {
        schema: {
          'x-right': 'feedback',
          'x-audit': 'in-handler',
          tags,
          params: guidParams,
          body: updateFeedbackBody,
          response: { 200: feedbackResponse },
        },
      },
      async (request) =>
        presentFeedback(
          await changeOf(request, () =>
            feedback.update(
              workspaceOf(request).id,
              request.params.guid,
              feedbackChangesFromWire(request.body),
            ),
          ),
        ),
    );

    app.delete(
      '/feedback/:guid',
      {
        schema: {
          'x-right': 'feedback',
          'x-audit': 'in-handler',
          tags,
          params: guidParams,
          response: { 200: feedbackResponse },
        },
      },
      async (request) =>
        presentFeedback(
          await changeOf(request, () => feedback.remove(workspaceOf(request).id, request.params.guid)),
        ),
    );

    // Older clients post to the collection with the data GUID in the body (docs/sdk-compatibility.md).
    app.post(
      '/feedback',
      {
        schema: {
          'x-right': 'feedback',
          tags,
          body: legacyFeedbackBody,
          response: { 201: feedbackResponse },
        },
      },
      async (request, reply) => {
        const workspace = workspaceOf(request);
        const { data, meta_data, metadata, ...fields } = request.body;
        const record = await feedback.create(workspace.id, creatorOf(request), data, {
          ...fields,
          metadata: metadata ?? meta_data,
        });
        return reply.status(201).send(presentFeedback(record));
      },
    );
  };
}
