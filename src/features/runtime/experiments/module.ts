import type { ActionsModule } from '../../authoring/actions/module.js';
import type { AppsModule } from '../../authoring/apps/module.js';
import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { RunsModule } from '../runs/module.js';
import type { SessionsModule } from '../sessions/module.js';
import { createExperimentRepository } from './repository.js';
import { experimentRoutes } from './routes.js';
import { createExperimentService } from './service.js';

/** Experiments: traffic split between an Action's versions, each run naming its arm. */
export function createExperimentsModule(
  parts: ModuleParts,
  modules: { apps: AppsModule; actions: ActionsModule; sessions: SessionsModule; runs: RunsModule },
) {
  const { runs, idempotentRequests } = modules.runs.services;
  const experiments = createExperimentService({
    repository: createExperimentRepository(parts.database),
    apps: modules.apps.services.apps,
    requireAction: modules.actions.services.actions.require,
    sessions: modules.sessions.services.sessions,
    runs,
  });
  return featureModule({
    services: { experiments },
    routes: { v1: [experimentRoutes(experiments, idempotentRequests)] },
  });
}

export type ExperimentsModule = ReturnType<typeof createExperimentsModule>;
