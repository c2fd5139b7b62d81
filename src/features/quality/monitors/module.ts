import type { ActionsModule } from '../../authoring/actions/module.js';
import { featureModule, handles } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { GenerationsModule } from '../../runtime/generations/module.js';
import type { EvaluatorsModule } from '../evaluators/module.js';
import { createMonitorRepository } from './repository.js';
import { monitorRoutes } from './routes.js';
import { createMonitorService } from './service.js';
import { createSweepRunner, defaultSweepPace, monitorSweepJob } from './sweep-job.js';

/** Monitors: evaluators that score new production generations in the background. */
export function createMonitorsModule(
  parts: ModuleParts,
  modules: { actions: ActionsModule; generations: GenerationsModule; evaluators: EvaluatorsModule },
) {
  const { evaluators } = modules.evaluators.services;
  const repository = createMonitorRepository(parts.database);
  const monitors = createMonitorService({
    repository,
    jobs: parts.jobs,
    requireAction: modules.actions.services.actions.require,
    requireEvaluator: evaluators.require,
    afterCommit: parts.platform.transactions.afterCommit,
  });
  const monitorSweeps = createSweepRunner({
    repository,
    scores: modules.generations.shares.scores,
    jobs: parts.jobs,
    tools: modules.evaluators.shares.scoringTools,
    evaluator: evaluators.find,
    pace: defaultSweepPace,
    logger: parts.logger('monitors'),
  });
  return featureModule({
    services: { monitors, monitorSweeps },
    routes: { v1: [monitorRoutes(monitors)] },
    jobs: [handles(monitorSweepJob, monitorSweeps)],
  });
}

export type MonitorsModule = ReturnType<typeof createMonitorsModule>;
