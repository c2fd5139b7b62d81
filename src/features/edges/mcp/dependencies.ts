import { isGuid } from '../../../core/guid.js';
import type { PromptService } from '../../authoring/prompts/index.js';
import type { ContextTexts } from '../../knowledge/contexts/index.js';
import type { RunCaller, RunEngine, RunService } from '../../runtime/runs/index.js';

// What the MCP endpoint needs, apart from the SDK (which server.ts loads on the first request).

/** Who asks, and what they may: the key's workspace and whether its role may run. */
export type McpCaller = { caller: RunCaller; mayRun: boolean; environment: string | undefined };

export type McpDependencies = {
  prompts: Pick<PromptService, 'list'>;
  engine: Pick<RunEngine, 'prepare'>;
  runs: Pick<RunService, 'run'>;
  contextTexts: ContextTexts;
  /** A Context's GUID by GUID or name, or undefined. */
  findContext: (workspaceId: string, guidOrName: string) => Promise<string | undefined>;
  version: string;
};

/** A Context by GUID, or by name among the workspace's. */
export function contextFinder(contexts: {
  exists(workspaceId: string, id: string): Promise<boolean>;
  findIdByName(workspaceId: string, name: string): Promise<string | undefined>;
}): McpDependencies['findContext'] {
  return async (workspaceId, guidOrName) =>
    isGuid(guidOrName)
      ? (await contexts.exists(workspaceId, guidOrName))
        ? guidOrName
        : undefined
      : contexts.findIdByName(workspaceId, guidOrName);
}
