import { createPort } from '../../../core/port.js';
import type { GateReference } from '../../../errors.js';
import type { ActionsModule } from '../../authoring/actions/module.js';
import { featureModule } from '../../feature-module.js';
import type { ProvidersModule } from '../../models/providers/module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { RunsModule } from '../../runtime/runs/module.js';
import { createCheckRunner } from './check-runner.js';
import { actionJudge } from './judge.js';
import { createEvaluatorRepository } from './repository.js';
import { evaluatorRoutes } from './routes.js';
import { createEvaluatorService } from './service.js';
import { embeddingSimilarity } from './similarity.js';

/**
 * Evaluators and what scores with them: the tools the evaluations and the monitors share (the
 * workspace's embedder, an Action as judge, the pattern and schema checks on a worker thread).
 */
export function createEvaluatorsModule(
  parts: ModuleParts,
  modules: { providers: ProvidersModule; actions: ActionsModule; runs: RunsModule },
) {
  const { embedders } = modules.providers.shares;
  const { actions } = modules.actions.services;
  const hasAction = async (workspaceId: string, action: string) =>
    (await actions.find(workspaceId, action)) !== undefined;
  // Evaluators' patterns and schemas run on a worker thread, never on the request thread.
  const checks = createCheckRunner();
  const scoringTools = {
    // The workspace's embedder: the offline model that Contexts use by default.
    ...embeddingSimilarity((workspaceId: string) => embedders.forContext(workspaceId, null)),
    judge: actionJudge(modules.runs.services.engine),
    hasAction,
    check: checks.check,
  };
  // An evaluator a release gate requires is not deleted: the gates (made after) tell which use it.
  const gatesUsing = createPort<(workspaceId: string, id: string) => Promise<GateReference[]>>(
    'the release gates that use an evaluator',
  );
  const evaluators = createEvaluatorService({
    repository: createEvaluatorRepository(parts.database),
    tools: scoringTools,
    gatesUsing: gatesUsing.call,
  });
  return featureModule({
    services: { evaluators },
    shares: { scoringTools, hasAction },
    ports: { gatesUsing },
    routes: { v1: [evaluatorRoutes(evaluators)] },
    close: () => checks.close(),
  });
}

export type EvaluatorsModule = ReturnType<typeof createEvaluatorsModule>;
