import type { ActionsModule } from '../../authoring/actions/module.js';
import { featureModule, handles } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { RunsModule } from '../../runtime/runs/module.js';
import type { DatasetsModule } from '../datasets/module.js';
import type { EvaluatorsModule } from '../evaluators/module.js';
import { createComparisonRepository } from './comparison-repository.js';
import { createItemRunner, evaluationItemJob } from './item-job.js';
import { createEvaluationRepository } from './repository.js';
import { evaluationRoutes } from './routes.js';
import { createEvaluationService } from './service.js';

/** Evaluations: a version run over a dataset's items and scored, each item a job; and comparisons. */
export function createEvaluationsModule(
  parts: ModuleParts,
  modules: {
    actions: ActionsModule;
    runs: RunsModule;
    datasets: DatasetsModule;
    evaluators: EvaluatorsModule;
  },
) {
  const { transactions } = parts.platform;
  const { evaluators } = modules.evaluators.services;
  const { scoringTools, hasAction } = modules.evaluators.shares;
  const repository = createEvaluationRepository(parts.database);
  const comparisons = createComparisonRepository(parts.database);
  const evaluations = createEvaluationService({
    repository,
    comparisons,
    sources: {
      resolveAction: modules.actions.services.actions.resolveForRun,
      dataset: modules.datasets.services.datasets.require,
      async evaluator(workspaceId, id) {
        const { name, type, config } = await evaluators.require(workspaceId, id);
        return { id, name, type, config };
      },
    },
    jobs: parts.jobs,
    inTransaction: transactions.run,
    afterCommit: transactions.afterCommit,
    logger: parts.logger('evaluations'),
  });
  const evaluationItems = createItemRunner({
    repository,
    engine: modules.runs.services.engine,
    jobs: parts.jobs,
    tools: scoringTools,
    hasAction,
    inTransaction: transactions.run,
    events: parts.events.call,
    logger: parts.logger('evaluations'),
  });
  return featureModule({
    services: { evaluations, evaluationItems },
    shares: { comparisons },
    routes: { v1: [evaluationRoutes(evaluations)] },
    jobs: [handles(evaluationItemJob, evaluationItems)],
  });
}

export type EvaluationsModule = ReturnType<typeof createEvaluationsModule>;
