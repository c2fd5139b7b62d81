import { once } from 'node:events';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TooManyRequestsError } from '../../../errors.js';
import { stillSignedIn, workspaceOf } from '../../../http/authentication.js';
import { openEventStream } from '../../../http/event-stream.js';
import { guidOrSlugParams } from '../actions/index.js';
import { presentDeployedPrompt } from './presenters.js';
import { deployedPromptList, deployedPromptResponse, deploymentEventsResponse } from './responses.js';
import { promptQuery } from './schemas.js';
import type { DeploymentEvent, PromptService } from './service.js';

/** How often an idle event stream sends a comment, so proxies and clients see it is alive. */
const keepAliveMs = 15_000;
/**
 * How often an open stream asks whether its key or sign-in still stands, from the database on every
 * node: a revoked key's or a removed member's stream ends within this (and the query's) time.
 */
const credentialCheckMs = 2_000;

function frame(event: DeploymentEvent): string {
  const data =
    event.type === 'deployment'
      ? presentDeployedPrompt(event.deployed)
      : { action: event.action, slug: event.slug, environment: event.environment };
  return `event: ${event.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Deployed prompts for clients that render them themselves (docs/client.md): one, all of them (a
 * snapshot), and a push of every deploy to connected clients.
 */
export function promptRoutes(prompts: PromptService, streamsPerWorkspace: number): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['prompts'];
    // Event streams end when the server closes, or they would hold it open.
    const openStreams = new Set<() => void>();
    app.addHook('onClose', async () => {
      for (const end of openStreams) end();
    });

    app.get(
      '/prompts',
      {
        schema: {
          'x-right': 'read_runs',
          tags,
          querystring: promptQuery,
          response: { 200: deployedPromptList },
        },
      },
      async (request) => {
        const { environment } = request.query;
        const deployed = await prompts.list(workspaceOf(request).id, environment);
        return { data: deployed.map(presentDeployedPrompt), environment: environment ?? null };
      },
    );

    app.get(
      '/prompts/:guidOrSlug',
      {
        schema: {
          'x-right': 'read_runs',
          tags,
          params: guidOrSlugParams,
          querystring: promptQuery,
          response: { 200: deployedPromptResponse },
        },
      },
      async (request) =>
        presentDeployedPrompt(
          await prompts.get(workspaceOf(request).id, request.params.guidOrSlug, request.query.environment),
        ),
    );

    app.get(
      '/deployments/events',
      { schema: { 'x-right': 'read_runs', tags, response: { 200: deploymentEventsResponse } } },
      async (request, reply) => {
        const workspaceId = workspaceOf(request).id;
        // Each stream holds a socket and a listener: one workspace may not take them all.
        if (prompts.listeners(workspaceId) >= streamsPerWorkspace) {
          throw new TooManyRequestsError(
            'too_many_event_streams',
            `a workspace may hold ${streamsPerWorkspace} deployment event streams open on a node; close some`,
            5,
          );
        }
        const response = openEventStream(reply);
        // Frames are written in order; a slow client is waited for (drain), never skipped.
        let writing = Promise.resolve();
        const send = (text: string) => {
          writing = writing.then(async () => {
            if (!response.write(text) && !response.destroyed)
              await once(response, 'drain').catch(() => undefined);
          });
        };
        const stopListening = prompts.listen(workspaceId, (events) => {
          for (const event of events) send(frame(event));
        });
        const keepAlive = setInterval(() => send(': keep-alive\n\n'), keepAliveMs);
        send('retry: 1000\nevent: ready\ndata: {}\n\n');
        let end = () => {};
        const finished = new Promise<void>((resolve) => {
          end = resolve;
        });
        response.on('close', end);
        openStreams.add(end);
        const credentialCheck = setInterval(() => {
          stillSignedIn(request).then(
            (signedIn) => signedIn || end(),
            () => undefined,
          );
        }, credentialCheckMs);
        await finished;
        openStreams.delete(end);
        clearInterval(keepAlive);
        clearInterval(credentialCheck);
        stopListening();
        response.end();
      },
    );
  };
}
