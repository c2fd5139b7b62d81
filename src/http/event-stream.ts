import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * Takes the reply over for a Server-Sent Events stream: each event is written at once (no Nagle
 * delay), and neither a proxy nor a browser may buffer or transform it.
 */
export function openEventStream(reply: FastifyReply): ServerResponse {
  reply.hijack();
  const response = reply.raw;
  response.socket?.setNoDelay(true);
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  return response;
}
