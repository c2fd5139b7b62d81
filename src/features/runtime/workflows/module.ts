import type { ActionsModule } from '../../authoring/actions/module.js';
import type { AppsModule } from '../../authoring/apps/module.js';
import { featureModule, handles } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { RunsModule } from '../runs/module.js';
import { createWorkflowRepository } from './repository.js';
import { workflowRoutes } from './routes.js';
import { createWorkflowRunRepository } from './run-repository.js';
import { createWorkflowRunner, workflowBlockJob } from './runner.js';
import { createWorkflowService } from './service.js';

/** Workflows: blocks of Actions run in order, each block a durable job. */
export function createWorkflowsModule(
  parts: ModuleParts,
  modules: { apps: AppsModule; actions: ActionsModule; runs: RunsModule },
) {
  const workflows = createWorkflowService({
    repository: createWorkflowRepository(parts.database),
    apps: modules.apps.services.apps,
    findAction: modules.actions.services.actions.find,
  });
  const workflowRunner = createWorkflowRunner({
    runs: createWorkflowRunRepository(parts.database),
    workflows,
    durable: modules.runs.shares.durable,
    jobs: parts.jobs,
    baseUrl: parts.config.baseUrl,
    logger: parts.logger('workflows'),
    tracing: parts.platform.tracing,
  });
  return featureModule({
    services: { workflows, workflowRunner },
    routes: { v1: [workflowRoutes(workflows, workflowRunner)] },
    jobs: [handles(workflowBlockJob, workflowRunner.blockHandler)],
  });
}

export type WorkflowsModule = ReturnType<typeof createWorkflowsModule>;
