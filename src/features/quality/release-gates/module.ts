import type { ActionsModule } from '../../authoring/actions/module.js';
import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { DatasetsModule } from '../datasets/module.js';
import type { EvaluationsModule } from '../evaluations/module.js';
import type { EvaluatorsModule } from '../evaluators/module.js';
import { createGateReader } from './deploy-guard.js';
import { createReleaseGateRepository } from './repository.js';
import { releaseGateRoutes } from './routes.js';
import { createReleaseGateService } from './service.js';

/**
 * Release gates: what a version must have shown before it is deployed to an environment. A deploy
 * asks the gates' read side (the gate reader) before it writes; the gates tell the datasets and
 * evaluators which of them they use.
 */
export function createReleaseGatesModule(
  parts: ModuleParts,
  modules: {
    actions: ActionsModule;
    datasets: DatasetsModule;
    evaluators: EvaluatorsModule;
    evaluations: EvaluationsModule;
  },
) {
  const { actions } = modules.actions.services;
  const { datasets } = modules.datasets.services;
  const repository = createReleaseGateRepository(parts.database);
  const datasetVersion = async (workspaceId: string, id: string) =>
    (await datasets.require(workspaceId, id)).version;
  const gates = createGateReader({
    repository,
    datasetVersion,
    evidence: modules.evaluations.shares.comparisons,
  });
  modules.actions.ports.deployGuard.provide(gates.guard);
  modules.actions.ports.gatedEnvironments.provide(gates.gatedEnvironments);
  modules.datasets.ports.gatesUsing.provide((workspaceId, datasetId) =>
    repository.gatesUsing(workspaceId, { datasetId }),
  );
  modules.evaluators.ports.gatesUsing.provide((workspaceId, evaluatorId) =>
    repository.gatesUsing(workspaceId, { evaluatorId }),
  );
  const releaseGates = createReleaseGateService({
    repository,
    actions,
    datasetVersion,
    requireEvaluator: modules.evaluators.services.evaluators.require,
    gates,
  });
  return featureModule({
    services: { releaseGates },
    routes: { v1: [releaseGateRoutes(releaseGates, actions)] },
  });
}

export type ReleaseGatesModule = ReturnType<typeof createReleaseGatesModule>;
