import { createActionRepository } from './features/actions/repository.js';
import { createActionService } from './features/actions/service.js';
import { createAppRepository } from './features/apps/repository.js';
import { createAppService } from './features/apps/service.js';
import { createModelResolver } from './features/providers/model-resolution.js';
import { createProviderRepository } from './features/providers/repository.js';
import { createProviderService } from './features/providers/service.js';
import { createWorkspaceRepository } from './features/workspaces/repository.js';
import { createWorkspaceService } from './features/workspaces/service.js';
import type { Platform } from './platform/platform.js';

/** Every service, wired once per process from the platform. */
export function createServices(platform: Platform) {
  const database = platform.database.database;
  const providerRepository = createProviderRepository(database);
  const models = createModelResolver(
    providerRepository,
    platform.secretBox,
    platform.config.providerFallbacks,
  );
  const apps = createAppService(createAppRepository(database));
  return {
    workspaces: createWorkspaceService(createWorkspaceRepository(database)),
    apps,
    providers: createProviderService(providerRepository, platform.secretBox),
    models,
    actions: createActionService(createActionRepository(database), apps, models),
  };
}

export type Services = ReturnType<typeof createServices>;
