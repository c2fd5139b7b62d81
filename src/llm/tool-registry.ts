import type { ToolDefinition } from '../core/json-columns.js';

/** Who runs a tool call; `depth` counts the Action runs above it (a skill may run another Action). */
export type ToolExecution = { workspaceId: string; signal?: AbortSignal; depth: number };

/** Runs one tool call on the server and returns what the model is told. */
export type ToolImplementation = (input: unknown, execution: ToolExecution) => Promise<unknown>;

/** Tools a run may offer and execute: the Action's own definitions plus what sources add. */
export type ServerTools = {
  definitions: ToolDefinition[];
  implementations: Map<string, ToolImplementation>;
};

/**
 * A source of server-side tools for a run — Skills plug in here: given the Action version's skill
 * GUIDs, a source answers the tool definitions they stand for and how to execute them.
 */
export type ToolSource = (
  workspaceId: string,
  version: { skills: string[]; tools: ToolDefinition[] },
) => Promise<Partial<ServerTools>>;

/** Where a run finds its server-executed tools: Skills register here as a tool source. */
export interface ToolRegistry {
  register(source: ToolSource): void;
  /** The tools of one run: Action definitions first; a source's definition of the same name wins. */
  toolsFor(workspaceId: string, version: { skills: string[]; tools: ToolDefinition[] }): Promise<ServerTools>;
}

export function createToolRegistry(): ToolRegistry {
  const sources: ToolSource[] = [];
  return {
    register(source: ToolSource): void {
      sources.push(source);
    },

    async toolsFor(
      workspaceId: string,
      version: { skills: string[]; tools: ToolDefinition[] },
    ): Promise<ServerTools> {
      const definitions = new Map(version.tools.map((tool) => [tool.name, tool]));
      const implementations = new Map<string, ToolImplementation>();
      for (const source of sources) {
        const contributed = await source(workspaceId, version);
        for (const definition of contributed.definitions ?? []) definitions.set(definition.name, definition);
        for (const [name, implementation] of contributed.implementations ?? [])
          implementations.set(name, implementation);
      }
      return { definitions: [...definitions.values()], implementations };
    },
  };
}
