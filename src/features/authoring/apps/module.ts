import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import { createAppRepository } from './repository.js';
import { appRoutes, workspaceAppListRoute } from './routes.js';
import { createAppService } from './service.js';

/** Apps: the folders of a workspace's Actions. */
export function createAppsModule(parts: ModuleParts) {
  const apps = createAppService({ repository: createAppRepository(parts.database) });
  return featureModule({
    services: { apps },
    routes: { v1: [appRoutes(apps), workspaceAppListRoute(apps)] },
  });
}

export type AppsModule = ReturnType<typeof createAppsModule>;
