import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.js';
import { createLogPipeline } from './log-pipeline.js';
import { mayBeManaged, resolveManagedPrompt } from './managed-prompts.js';
import { createGatewayMetrics } from './metrics.js';
import { createUpstream, type ForwardTarget, sendError } from './proxy.js';
import { createServiceClient, ServiceRejectedError } from './service-client.js';

class BodyTooLargeError extends Error {}

function readBody(request: IncomingMessage, limitBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the client still gets its 413.
      if (size > limitBytes) {
        chunks.length = 0;
        reject(new BodyTooLargeError());
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function parseObject(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(body.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const chatPaths = new Set(['/chat/completions', '/v1/chat/completions']);
const modelPaths = new Set(['/models', '/v1/models']);
/** The status counted for a client that closed its connection before the upstream answered (nginx's). */
const clientClosedStatus = 499;

/**
 * `lectern gateway` (docs/api.md#how-the-parts-behave): a chat-completions proxy in its own process. Plain node:http and
 * an undici pool keep its own share of each request small; everything about logging happens after
 * the response has ended.
 */
export function createGateway(config: GatewayConfig, logger: Logger) {
  const metrics = createGatewayMetrics();
  const service = createServiceClient(config.serviceUrl);
  const shipper = createLogPipeline({
    serviceUrl: config.serviceUrl,
    queueLimit: config.queueLimit,
    queueBytes: config.queueBytes,
    textLimit: config.logTextLimit,
    spoolDirectory: path.join(config.dataDirectory, 'spool'),
    spoolBytes: config.spoolBytes,
    metrics,
    logger,
  });
  const upstream = createUpstream(config.upstream);

  /** What an exchange is logged under: the Lectern key and Action, and a managed prompt's rendering. */
  type ExchangeLogging = {
    serviceKey?: string;
    actionGuid?: string;
    variables?: unknown;
    version?: number;
    environment?: string;
  };

  async function proxy(
    request: IncomingMessage,
    response: ServerResponse,
    route: string,
    started: number,
    target: ForwardTarget,
    logging?: ExchangeLogging,
  ) {
    const result = await upstream.forward(request, response, target);
    const totalMs = performance.now() - started;
    // A client that left before the upstream answered got nothing: nginx's 499, not an upstream 502.
    metrics.requests.inc({ route, status: result.clientClosed ? clientClosedStatus : result.status });
    metrics.upstreamSeconds.observe(result.upstreamMs / 1000);
    metrics.overheadSeconds.observe(Math.max(0, totalMs - result.upstreamMs) / 1000);
    if (!logging) return;
    if (!logging.serviceKey || !logging.actionGuid) return shipper.unattributed();
    shipper.record({
      serviceKey: logging.serviceKey,
      actionGuid: logging.actionGuid,
      requestBody: target.body ?? Buffer.alloc(0),
      variables: logging.variables,
      ...(logging.version !== undefined && { actionVersion: logging.version }),
      ...(logging.environment !== undefined && { actionEnvironment: logging.environment }),
      responseChunks: result.chunks,
      status: result.status,
      contentType: result.contentType,
      latencyMs: totalMs,
      interrupted: result.interrupted,
      upstreamHost: upstream.host,
      ...(typeof request.headers.traceparent === 'string' && { traceparent: request.headers.traceparent }),
    });
  }

  async function chat(request: IncomingMessage, response: ServerResponse, started: number) {
    let body: Buffer;
    try {
      body = await readBody(request, config.bodyLimitBytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        response.setHeader('connection', 'close');
        return sendError(
          response,
          413,
          `the body is larger than ${config.bodyLimitBytes} bytes`,
          'body_too_large',
        );
      }
      throw error;
    }
    const serviceKey = header(request, 'x-svc-api-key');
    const logging: ExchangeLogging = { serviceKey, actionGuid: header(request, 'x-svc-action-guid') };
    let authorization: string | undefined;
    const parsed = mayBeManaged(body) ? parseObject(body) : undefined;
    if (parsed) {
      try {
        const managed = await resolveManagedPrompt(service, serviceKey, parsed);
        if (managed === 'missing_key') {
          return sendError(
            response,
            400,
            'a managed prompt (model "action:…") needs the x-svc-api-key header',
            'missing_service_key',
          );
        }
        if (managed) {
          body = managed.body;
          logging.actionGuid = managed.actionGuid;
          logging.variables = managed.variables;
          logging.version = managed.version;
          logging.environment = managed.environment;
          authorization = managed.authorization;
        }
      } catch (error) {
        if (error instanceof ServiceRejectedError)
          return sendError(response, error.status, error.message, 'managed_prompt');
        return sendError(response, 502, (error as Error).message, 'service_unavailable');
      }
    }
    await proxy(
      request,
      response,
      'chat',
      started,
      { method: 'POST', path: '/chat/completions', body, authorization },
      logging,
    );
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const started = performance.now();
    const queryAt = request.url?.indexOf('?') ?? -1;
    const path = queryAt === -1 ? (request.url ?? '/') : request.url!.slice(0, queryAt);
    const query = queryAt === -1 ? '' : request.url!.slice(queryAt);
    if (request.method === 'POST' && chatPaths.has(path)) return chat(request, response, started);
    if (request.method === 'GET' && modelPaths.has(path)) {
      return proxy(request, response, 'models', started, { method: 'GET', path: `/models${query}` });
    }
    if (request.method === 'GET' && path === '/healthz') {
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end('{"status":"ok"}');
    }
    if (request.method === 'GET' && path === '/metrics') {
      const text = await metrics.registry.metrics();
      response.writeHead(200, { 'content-type': metrics.registry.contentType });
      return response.end(text);
    }
    sendError(response, 404, `${request.method} ${path} is not a gateway route`, 'not_found');
  }

  const server = http.createServer({ noDelay: true, keepAliveTimeout: 65_000 }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      logger.error({ err: (error as Error).message }, 'gateway request failed');
      if (!response.headersSent) sendError(response, 500, 'the gateway failed', 'internal_error');
      else response.destroy();
    });
  });

  return {
    server,
    metrics,
    shipper,
    async listen(port: number, host: string): Promise<string> {
      await new Promise<void>((resolve) => server.listen(port, host, resolve));
      const address = server.address() as AddressInfo;
      return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    },
    /** Stops accepting, lets running requests finish (bounded), then sends the queued logs. */
    async close(timeoutMs = 10_000): Promise<void> {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeIdleConnections();
      const forced = setTimeout(() => server.closeAllConnections(), timeoutMs);
      await closed;
      clearTimeout(forced);
      await shipper.close();
      await Promise.all([upstream.close(), service.close()]);
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;
