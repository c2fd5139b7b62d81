import { createPort } from '../../../core/port.js';
import type { GateReference } from '../../../errors.js';
import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { GenerationsModule } from '../../runtime/generations/module.js';
import { createDatasetRepository } from './repository.js';
import { datasetRoutes } from './routes.js';
import { createDatasetService } from './service.js';

/** Datasets: versioned items, imported, written or taken from stored generations. */
export function createDatasetsModule(parts: ModuleParts, modules: { generations: GenerationsModule }) {
  // A dataset a release gate evaluates on is not deleted: the gates (made after) tell which use it.
  const gatesUsing = createPort<(workspaceId: string, id: string) => Promise<GateReference[]>>(
    'the release gates that use a dataset',
  );
  const datasets = createDatasetService({
    repository: createDatasetRepository(parts.database),
    generations: modules.generations.shares.repository.inputsAndOutputs,
    inTransaction: parts.platform.transactions.run,
    gatesUsing: gatesUsing.call,
  });
  return featureModule({
    services: { datasets },
    ports: { gatesUsing },
    routes: { v1: [datasetRoutes(datasets, { importLimitBytes: parts.config.bodyLimitBytes })] },
  });
}

export type DatasetsModule = ReturnType<typeof createDatasetsModule>;
