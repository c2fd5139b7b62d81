import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { Pool } from 'undici';

/** RFC 9110 §7.6.1: meaningful for one connection only, never passed on. */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Request headers the upstream never sees: hop-by-hop ones, the x-svc headers (Lectern's, not the
 * provider's), and accept-encoding, so that responses arrive uncompressed and the logged output can
 * be read without decompressing (the hop to the client is the same either way on a LAN).
 */
const notForwarded = new Set([...hopByHop, 'host', 'content-length', 'accept-encoding']);
/** Lectern's own headers (`x-svc-api-key`, `x-svc-action-guid`, a payload's `x-svc-action-version`…). */
const lecternHeader = /^x-svc-/;

function connectionListed(headers: IncomingHttpHeaders): Set<string> {
  const listed = headers.connection;
  return new Set(listed ? listed.split(',').map((name) => name.trim().toLowerCase()) : []);
}

function upstreamHeaders(
  request: IncomingMessage,
  authorization: string | undefined,
): Record<string, string> {
  const listed = connectionListed(request.headers);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || notForwarded.has(name) || lecternHeader.test(name) || listed.has(name))
      continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  if (authorization && !headers.authorization) headers.authorization = authorization;
  return headers;
}

function clientHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const listed = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || hopByHop.has(name) || listed.has(name)) continue;
    kept[name] = value;
  }
  return kept;
}

export type ForwardTarget = {
  method: 'GET' | 'POST';
  path: string;
  body?: Buffer;
  /** Used when the caller sent no Authorization (a managed prompt's workspace credential). */
  authorization?: string;
};

export type ForwardResult = {
  status: number;
  contentType: string | undefined;
  /** The response body as sent to the client (kept up to a limit, for the log). */
  chunks: Buffer[];
  /** The client left, or the upstream failed, before the response ended. */
  interrupted: boolean;
  /** The client closed its connection before the upstream answered: no status reached it. */
  clientClosed: boolean;
  upstreamMs: number;
};

/** The most of one response kept for the log; the client always gets all of it. */
const recordLimitBytes = 8 * 1024 * 1024;

/**
 * Forwards to the upstream with `undici.stream()`: the response's status and headers (minus hop-by-hop)
 * go to the client as they arrive, then every chunk is written on as it comes — SSE passes through
 * unbuffered — while a reference to it is kept for the log. A client that disconnects aborts the
 * upstream request.
 */
export function createUpstream(upstreamUrl: string) {
  const base = new URL(upstreamUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const pool = new Pool(base.origin, { connections: 256, pipelining: 1, keepAliveTimeout: 30_000 });

  async function forward(
    request: IncomingMessage,
    response: ServerResponse,
    target: ForwardTarget,
  ): Promise<ForwardResult> {
    const controller = new AbortController();
    const result: ForwardResult = {
      status: 502,
      contentType: undefined,
      chunks: [],
      interrupted: false,
      clientClosed: false,
      upstreamMs: 0,
    };
    const abortOnLeave = () => {
      if (!response.writableFinished) controller.abort();
    };
    response.on('close', abortOnLeave);
    let recorded = 0;
    const upstreamStarted = performance.now();
    try {
      await pool.stream(
        {
          path: `${basePath}${target.path}`,
          method: target.method,
          headers: upstreamHeaders(request, target.authorization),
          body: target.body,
          signal: controller.signal,
          headersTimeout: 300_000,
          bodyTimeout: 300_000,
        },
        ({ statusCode, headers }) => {
          result.status = statusCode;
          const contentType = headers['content-type'];
          result.contentType = Array.isArray(contentType) ? contentType[0] : contentType;
          response.writeHead(statusCode, clientHeaders(headers));
          return new Writable({
            write(chunk: Buffer, _encoding, callback) {
              if (recorded < recordLimitBytes) {
                result.chunks.push(chunk);
                recorded += chunk.length;
              }
              if (response.write(chunk)) callback();
              else response.once('drain', callback);
            },
            final(callback) {
              result.upstreamMs = performance.now() - upstreamStarted;
              response.end();
              callback();
            },
          });
        },
      );
    } catch {
      result.interrupted = true;
      result.clientClosed = !response.headersSent && controller.signal.aborted;
      result.upstreamMs = performance.now() - upstreamStarted;
      if (!response.headersSent && !controller.signal.aborted) {
        sendError(response, 502, 'the upstream could not be reached', 'upstream_unreachable');
      } else if (!response.writableEnded) {
        // Headers and part of the body are out: only closing the connection tells the client.
        response.destroy();
      }
    } finally {
      response.off('close', abortOnLeave);
    }
    return result;
  }

  return { forward, host: base.host, close: () => pool.close() };
}

export type Upstream = ReturnType<typeof createUpstream>;

/** An error in OpenAI's shape, so chat-completions clients show its message. */
export function sendError(response: ServerResponse, status: number, message: string, code: string): void {
  const body = JSON.stringify({ error: { message, type: 'gateway_error', code } });
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}
