import { once } from 'node:events';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { openEventStream } from '../../../http/event-stream.js';
import { streamEventsResponse } from './responses.js';
import { streamHeaders, streamQuery } from './schemas.js';
import type { RunService } from './service.js';
import { deliverEvents } from './stream-delivery.js';

/** `GET /api/streamByURL`: authenticated by the signed token in the URL, not by a Bearer key. */
export function streamRoutes(runs: RunService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/streamByURL',
      {
        schema: {
          'x-right': 'public',
          tags: ['runs'],
          querystring: streamQuery,
          headers: streamHeaders,
          response: { 200: streamEventsResponse },
        },
      },
      async (request, reply) => {
        const { guid, token } = request.query;
        const disconnected = new AbortController();
        const { events, resumed } = await runs.claimStream(
          guid,
          token,
          disconnected.signal,
          request.headers['last-event-id'],
        );
        // docs/streaming.md: each event leaves in a packet of its own.
        const response = openEventStream(reply);
        response.on('close', () => disconnected.abort());
        const send = async (frame: string) => {
          if (response.write(frame) || disconnected.signal.aborted) return;
          await once(response, 'drain', { signal: disconnected.signal }).catch(() => undefined);
        };
        try {
          await deliverEvents(events, { send, begin: !resumed, signal: disconnected.signal });
        } catch (error) {
          request.log.warn({ err: error }, 'stream delivery failed');
        } finally {
          response.end();
        }
      },
    );
  };
}
