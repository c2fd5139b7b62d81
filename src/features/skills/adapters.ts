import type { Context, ContextSearch } from '../contexts/index.js';
import type { RunEngine } from '../runs/index.js';
import { SkillFailedError } from './skill-type.js';
import type { ActionRunner } from './types/action.js';
import type { ContextSearcher } from './types/context-search.js';

/** A `context_search` Skill's search: its one Context, which may have been deleted since. */
export function createContextSearcher(
  contexts: { findMany(workspaceId: string, ids: string[]): Promise<Context[]> },
  search: Pick<ContextSearch, 'searchContexts'>,
): ContextSearcher {
  return async (workspaceId, contextId, query) => {
    const found = await contexts.findMany(workspaceId, [contextId]);
    if (found.length === 0) throw new SkillFailedError('the Context this Skill searches no longer exists');
    const hits = await search.searchContexts(workspaceId, found, query);
    return hits.map((hit) => hit.content);
  };
}

/**
 * An `action` Skill's run: a nested run of the named Action, one level deeper. A Skill never overrides
 * the Action's model (the model that calls it cannot pick another provider through it).
 */
export function createActionRunner(engine: Pick<RunEngine, 'prepare' | 'execute'>): ActionRunner {
  return async (execution, action, request) => {
    const caller = { workspaceId: execution.workspaceId, allowModelOverrides: false };
    const run = await engine.prepare(caller, action, request, {
      source: 'skill',
      depth: execution.depth + 1,
    });
    return (await engine.execute(run, { signal: execution.signal })).msg;
  };
}
