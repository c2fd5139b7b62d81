import type { ContextTexts } from '../contexts/index.js';
import type { RunEngine } from '../runs/index.js';
import { SkillFailedError } from './skill-type.js';
import type { ActionRunner } from './types/action.js';
import type { ContextSearcher } from './types/context-search.js';

/** A `context_search` Skill's search: its one Context, which may have been deleted since. */
export function createContextSearcher(contextTexts: ContextTexts): ContextSearcher {
  return async (workspaceId, contextId, query) => {
    const { found, texts } = await contextTexts(workspaceId, [contextId], query);
    if (found === 0) throw new SkillFailedError('the Context this Skill searches no longer exists');
    return texts;
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
