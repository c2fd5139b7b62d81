import { featureModule } from '../../feature-module.js';
import type { PeopleModule } from '../../identity/people/module.js';
import type { WorkspacesModule } from '../../identity/workspaces/module.js';
import type { ModuleParts } from '../../module-parts.js';
import { adminRoutes } from './routes.js';

/** The operator's routes (workspaces, people, the export), mounted only when an admin token is set. */
export function createAdminModule(
  parts: ModuleParts,
  modules: { workspaces: WorkspacesModule; people: PeopleModule },
) {
  const { adminToken } = parts.config;
  const { workspaces } = modules.workspaces.services;
  const { accounts } = modules.people.services;
  return featureModule({
    services: {},
    routes: { admin: adminToken ? [adminRoutes(workspaces, accounts, adminToken)] : [] },
  });
}
