import { contextVariable, templateVariables } from '@lectern/prompt-templates';
import type { DeployedVersion } from '../../authoring/actions/index.js';

// What MCP offers of a workspace (docs/mcp.md): each running Action deployed in the environment, as
// a prompt and as a tool named by its slug, whose arguments are its template variables.

/** The variables an Action version's templates read, in order of first use; `context` is retrieval's. */
export function variablesOf(deployed: DeployedVersion): string[] {
  const { prompt, systemMessage, messages } = deployed.version;
  const templates = [systemMessage, ...(messages ?? []).map((message) => message.content), prompt];
  const names = templates.flatMap((template) => (template ? templateVariables(template) : []));
  return [...new Set(names)].filter((name) => name !== contextVariable);
}

function describe(deployed: DeployedVersion): string {
  const { action, version, environment } = deployed;
  const about = action.description.trim() || action.name;
  return `${about} (version ${version.version}, deployed in ${environment})`;
}

export function promptOf(deployed: DeployedVersion) {
  return {
    name: deployed.action.slug,
    title: deployed.action.name,
    description: describe(deployed),
    arguments: variablesOf(deployed).map((name) => ({ name, required: true })),
  };
}

export function toolOf(deployed: DeployedVersion) {
  const variables = variablesOf(deployed);
  return {
    name: deployed.action.slug,
    title: deployed.action.name,
    description: `Runs the prompt: ${describe(deployed)}`,
    inputSchema: {
      type: 'object' as const,
      properties: Object.fromEntries(variables.map((name) => [name, { type: 'string' }])),
      required: variables,
      additionalProperties: false,
    },
  };
}

/** The tool beside the Actions: a search of one of the workspace's Contexts. */
export const searchContextTool = {
  name: 'search_context',
  title: 'Search a Context',
  description: "Searches one of the workspace's Contexts (a GUID or a name) and answers the passages found.",
  inputSchema: {
    type: 'object' as const,
    properties: {
      context: { type: 'string', description: "The Context's GUID or name" },
      query: { type: 'string' },
      limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Passages at most (default 5)' },
    },
    required: ['context', 'query'],
    additionalProperties: false,
  },
};
