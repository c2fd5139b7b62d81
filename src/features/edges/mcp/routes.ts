import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '../../../core/wire.js';
import { principalOf, workspaceOf } from '../../../http/authentication.js';
import { errorBody } from '../../../http/error-handler.js';
import { environment } from '../../authoring/actions/index.js';
import { callerOf } from '../../runtime/runs/index.js';
import type { McpDependencies } from './dependencies.js';
import type { McpHandler } from './server.js';

const mcpQuery = z.object({
  environment: environment
    .optional()
    .describe("The environment whose deployed prompts are offered; by default each Action's default one"),
});

/**
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP, stateless (docs/mcp.md). The SDK
 * answers the JSON-RPC itself, so the route hands it the raw request; it loads the SDK on first use.
 */
export function mcpRoutes(dependencies: McpDependencies): FastifyPluginAsyncZod {
  let handler: Promise<McpHandler> | undefined;
  const loaded = () => {
    handler ??= import('./server.js').then(({ createMcpHandler }) => createMcpHandler(dependencies));
    return handler;
  };
  return async (app) => {
    const tags = ['mcp'];
    app.post(
      '/mcp',
      {
        schema: {
          'x-right': 'read_runs',
          tags,
          description:
            'JSON-RPC of the Model Context Protocol (2025-06-18 and later): `prompts/list`, `prompts/get`, `tools/list`, `tools/call` (the `run` right).',
          querystring: mcpQuery,
          body: z.unknown(),
          response: {
            200: z.unknown().describe('The JSON-RPC answer'),
            202: z.unknown(),
            400: z.unknown().describe('A JSON-RPC error: a batch, which MCP 2025-06-18 removed'),
          },
        },
      },
      async (request, reply) => {
        // One request, one message: a batch of twenty tool calls would be twenty runs on one count of
        // the workspace's rate limit. MCP dropped batches in 2025-06-18, the oldest version served here.
        if (Array.isArray(request.body)) {
          return reply.status(400).send({
            jsonrpc: '2.0',
            id: null,
            error: {
              code: -32600,
              message: 'JSON-RPC batches are not supported: send one message a request',
            },
          });
        }
        const handle = await loaded();
        const who = {
          caller: callerOf(workspaceOf(request)),
          mayRun: principalOf(request).rights.has('run'),
          environment: request.query.environment,
        };
        reply.hijack();
        await handle(who, request.raw, reply.raw, request.body);
      },
    );
    // Stateless: there is no stream to open (GET) and no session to end (DELETE).
    app.route({
      method: ['GET', 'DELETE'],
      url: '/mcp',
      schema: { 'x-right': 'read_runs', tags, hide: true, response: { 405: errorResponse } },
      handler: async (_request, reply) =>
        reply
          .status(405)
          .header('allow', 'POST')
          .send(errorBody(405, 'method_not_allowed', 'MCP here is stateless: POST each message')),
    });
  };
}
