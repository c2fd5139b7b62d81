import type { ActionsModule } from '../../authoring/actions/module.js';
import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import { createSessionRepository } from './repository.js';
import { sessionRoutes } from './routes.js';
import { createSessionService } from './service.js';

/** Sessions: conversations whose generations a run continues. */
export function createSessionsModule(parts: ModuleParts, modules: { actions: ActionsModule }) {
  const sessions = createSessionService({
    repository: createSessionRepository(parts.database),
    requireAction: modules.actions.services.actions.require,
  });
  return featureModule({ services: { sessions }, routes: { v1: [sessionRoutes(sessions)] } });
}

export type SessionsModule = ReturnType<typeof createSessionsModule>;
