import type { ActionRunner } from '../../authoring/skills/index.js';
import type { RunEngine } from './engine.js';

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
