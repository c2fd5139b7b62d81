import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../../errors.js';
import { promptOf, searchContextTool, toolOf } from './catalogue.js';
import type { McpCaller, McpDependencies } from './dependencies.js';

const defaultSearchLimit = 5;

function failed(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/**
 * A tool's arguments are its template variables, each a string (its input schema says so): another
 * value would render as `[object Object]`, so it is the caller's invalid params, not a run.
 */
function requireTextArguments(input: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(input)) {
    if (typeof value !== 'string')
      throw new McpError(
        ErrorCode.InvalidParams,
        `argument "${name}" must be a string (got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`})`,
      );
  }
}

/** An error the API would answer 4xx (a missing variable, nothing deployed): the client's to fix. */
function clientError(error: unknown): string | undefined {
  return error instanceof AppError && error.status < 500 ? error.message : undefined;
}

/**
 * One MCP server for one request (stateless Streamable HTTP): built over the caller's workspace, it
 * lists and renders the deployed prompts and runs them as tools. Every call is recorded as a run's
 * generation with source `mcp`.
 */
function buildServer(dependencies: McpDependencies, who: McpCaller): Server {
  const { caller, environment } = who;
  const server = new Server(
    { name: 'lectern', version: dependencies.version },
    {
      capabilities: { prompts: {}, tools: {} },
      instructions:
        "The workspace's deployed prompts: get one rendered as messages, or call it as a tool to run it.",
    },
  );
  const deployed = () => dependencies.prompts.list(caller.workspaceId, environment);

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: (await deployed()).map(promptOf),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const { name, arguments: input = {} } = request.params;
    try {
      const run = await dependencies.engine.prepare(caller, name, { input, environment }, { source: 'mcp' });
      // Rendered, not run: its trace ends here.
      run.trace.end();
      return {
        description: `${run.resolved.action.name}, version ${run.resolved.version.version}`,
        // MCP's messages are the user's or the assistant's: a system message is given as the user's.
        messages: run.prompt.messages.map((message) => ({
          role: message.role === 'assistant' ? ('assistant' as const) : ('user' as const),
          content: {
            type: 'text' as const,
            text: typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
          },
        })),
      };
    } catch (error) {
      const message = clientError(error);
      if (message) throw new McpError(ErrorCode.InvalidParams, message);
      throw error;
    }
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...(await deployed()).map(toolOf), searchContextTool],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: input = {} } = request.params;
    if (!who.mayRun)
      return failed(
        "This key's role may list and read prompts but not run them: a runner key (or higher) may.",
      );
    if (name !== searchContextTool.name) requireTextArguments(input);
    try {
      if (name === searchContextTool.name) return await searchContext(input);
      const answer = await dependencies.runs.run(caller, name, { input, environment }, 'sync', {
        source: 'mcp',
      });
      return {
        content: [{ type: 'text', text: answer.msg }],
        _meta: { 'lectern/data_guid': answer.data_guid },
      };
    } catch (error) {
      const message = clientError(error);
      if (message) return failed(message);
      throw error;
    }
  });

  async function searchContext(input: Record<string, unknown>): Promise<CallToolResult> {
    const { context, query, limit } = input;
    if (typeof context !== 'string' || typeof query !== 'string' || query.trim() === '')
      return failed('search_context needs "context" (a GUID or a name) and a "query"');
    const found = await dependencies.findContext(caller.workspaceId, context);
    if (!found) return failed(`no Context "${context}" in this workspace`);
    const count =
      typeof limit === 'number' && limit >= 1 ? Math.min(50, Math.floor(limit)) : defaultSearchLimit;
    const { texts } = await dependencies.contextTexts(caller.workspaceId, [found], {
      text: query,
      limit: count,
    });
    return { content: texts.map((text) => ({ type: 'text' as const, text })) };
  }

  return server;
}

export type McpHandler = (
  who: McpCaller,
  request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
) => Promise<void>;

export function createMcpHandler(dependencies: McpDependencies): McpHandler {
  return async (who, request, response, body) => {
    const server = buildServer(dependencies, who);
    // Stateless: no session id, and a JSON answer to each POST rather than an event stream.
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  };
}
