import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import { apiKeyRoutes } from './keys-routes.js';
import { createWorkspaceRepository } from './repository.js';
import { workspaceKeyRoutes, workspaceRoutes } from './routes.js';
import { createWorkspaceService } from './service.js';

/** Workspaces and their API keys: who a request is. */
export function createWorkspacesModule(parts: ModuleParts) {
  const repository = createWorkspaceRepository(parts.database);
  const workspaces = createWorkspaceService({
    repository,
    options: { apiKeysPerWorkspace: parts.config.apiKeysPerWorkspace },
  });
  return featureModule({
    services: { workspaces },
    shares: {
      /** One workspace only: environment provider keys may be shared with it (docs/operations.md). */
      hasSingleWorkspace: () => repository.hasSingleWorkspace(),
      /** The workspace a first owner's setup makes them owner of: the bootstrap's `default`. */
      firstWorkspaceId: async () => (await repository.findWorkspaceByName('default'))?.id,
    },
    routes: { v1: [workspaceRoutes(workspaces), apiKeyRoutes(workspaces), workspaceKeyRoutes(workspaces)] },
  });
}

export type WorkspacesModule = ReturnType<typeof createWorkspacesModule>;
