import type { PromptsModule } from '../../authoring/prompts/module.js';
import { featureModule } from '../../feature-module.js';
import type { ContextsModule } from '../../knowledge/contexts/module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { RunsModule } from '../../runtime/runs/module.js';
import { contextFinder, type McpDependencies } from './dependencies.js';
import { mcpRoutes } from './routes.js';

/** MCP offers the deployed prompts to agents: it lists and renders them, and runs them as tools. */
export function createMcpModule(
  _parts: ModuleParts,
  modules: { prompts: PromptsModule; contexts: ContextsModule; runs: RunsModule },
) {
  const { engine, runs } = modules.runs.services;
  const mcp: McpDependencies = {
    prompts: modules.prompts.services.prompts,
    engine,
    runs,
    contextTexts: modules.contexts.shares.contextTexts,
    findContext: contextFinder(modules.contexts.services.contexts),
    version: '1',
  };
  return featureModule({ services: { mcp }, routes: { unversioned: [mcpRoutes(mcp)] } });
}
