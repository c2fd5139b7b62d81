import { setImmediate as afterPendingInput, setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { StreamEvent } from '../../platform/streams/stream-bus.js';
import { streamQuery } from './schemas.js';
import type { RunService } from './service.js';

/**
 * The official JS SDK handles one event per socket read and drops events that arrive together
 * (CONTRACT §7), so consecutive events are kept at least this far apart — and always separated by
 * at least one timer turn, because after a long synchronous stretch (an embedded-database write)
 * the previous event may still be unread even though the time has passed.
 */
const eventSpacingMs = 2;
const shortestPauseMs = 1;

function eventText(event: StreamEvent): string {
  if (event.type === 'token') return `data: ${JSON.stringify({ token: event.token })}\n\n`;
  if (event.type === 'end') return 'data: END_STREAM\n\n';
  return `event: error\ndata: ${JSON.stringify({ message: event.message })}\n\n`;
}

/** `GET /api/streamByURL`: authenticated by the signed token in the URL, not by a Bearer key. */
export function streamRoutes(runs: RunService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/streamByURL',
      { schema: { tags: ['runs'], querystring: streamQuery } },
      async (request, reply) => {
        const disconnected = new AbortController();
        const events = await runs.claimStream(request.query.guid, request.query.token, disconnected.signal);
        reply.hijack();
        const response = reply.raw;
        response.on('close', () => disconnected.abort());
        response.socket?.setNoDelay(true);
        response.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
        });
        let lastWrite: number | undefined;
        const write = async (text: string) => {
          if (lastWrite !== undefined) {
            await sleep(Math.max(shortestPauseMs, lastWrite + eventSpacingMs - performance.now()));
            // A due timer runs before pending input is read, and the check phase comes after the poll
            // phase: a reader in this same process (tests, an embedding app) has taken the last event.
            await afterPendingInput();
          }
          response.write(text);
          lastWrite = performance.now();
        };
        try {
          await write('data: BEGIN_STREAM\n\n');
          for await (const event of events) {
            if (disconnected.signal.aborted) break;
            await write(eventText(event));
          }
        } catch (error) {
          request.log.warn({ err: error }, 'stream delivery failed');
        } finally {
          response.end();
        }
      },
    );
  };
}
