import type { RunEngine } from '../../runtime/runs/index.js';
import type { ScoringTools } from './evaluator-types.js';

/**
 * The `llm_judge` evaluator's judge: its Action run through the one run engine (any provider, its
 * cost stored with the generation) as an `evaluation` run, which the Dashboard leaves out. The
 * judge runs as its Action is saved: the evaluator cannot change its model.
 */
export function actionJudge(engine: Pick<RunEngine, 'prepare' | 'execute'>): ScoringTools['judge'] {
  return async (workspaceId, action, variables) => {
    const caller = { workspaceId, allowModelOverrides: false };
    const run = await engine.prepare(caller, action, { input: variables }, { source: 'evaluation' });
    const outcome = await engine.execute(run);
    return { reply: outcome.msg, costUsd: outcome.cost?.generation ?? null };
  };
}
