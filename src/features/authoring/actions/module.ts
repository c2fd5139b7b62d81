import { createPort } from '../../../core/port.js';
import { featureModule } from '../../feature-module.js';
import type { ContextsModule } from '../../knowledge/contexts/module.js';
import type { ProvidersModule } from '../../models/providers/module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { AppsModule } from '../apps/module.js';
import type { PromptsModule } from '../prompts/module.js';
import type { SkillsModule } from '../skills/module.js';
import type { SnippetsModule } from '../snippets/module.js';
import { createAttachmentValidator } from './attachments.js';
import type { DeployGuard, ReleaseGateLookup } from './neighbours.js';
import { createActionRepository, type LastRunAt } from './repository.js';
import { actionRoutes, appActionListRoute } from './routes.js';
import { createActionService } from './service.js';

/**
 * Actions and their versions and deploys. Two wings above read and guard them: the runtime tells an
 * Action's last run (its generations), the release gates guard a deploy. Both provide their port.
 */
export function createActionsModule(
  parts: ModuleParts,
  modules: {
    providers: ProvidersModule;
    contexts: ContextsModule;
    apps: AppsModule;
    snippets: SnippetsModule;
    prompts: PromptsModule;
    skills: SkillsModule;
  },
) {
  const { transactions } = parts.platform;
  const { apps } = modules.apps.services;
  const { contexts } = modules.contexts.services;
  const { prompts } = modules.prompts.services;
  const { skills } = modules.skills.services;
  const lastRunAt = createPort<LastRunAt>('when an Action last ran');
  const deployGuard = createPort<DeployGuard>('the release gates’ guard of a deploy');
  const gatedEnvironments = createPort<ReleaseGateLookup['gatedEnvironments']>('the gated environments');
  const actions = createActionService({
    repository: createActionRepository(parts.database, lastRunAt.call),
    apps,
    models: modules.providers.services.models,
    validateAttachments: createAttachmentValidator({ contexts, skills: modules.skills.shares.repository }),
    resolveSnippets: modules.snippets.shares.library.resolve,
    neighbours: {
      gates: { guard: deployGuard.call, gatedEnvironments: gatedEnvironments.call },
      // Once a deploy is committed, every node pushes it to the clients connected to it.
      deploymentsChanged: (change) => void transactions.afterCommit(() => prompts.announce(change)),
      events: (workspaceId, event) => parts.events.call(workspaceId, event.type, event.data),
      whenEnded: transactions.whenEnded,
      logger: parts.logger('actions'),
    },
  });
  modules.skills.ports.findAction.provide(actions.find);
  return featureModule({
    services: { actions },
    ports: { lastRunAt, deployGuard, gatedEnvironments },
    routes: { v1: [actionRoutes(actions, { skills, contexts }), appActionListRoute(actions, apps)] },
  });
}

export type ActionsModule = ReturnType<typeof createActionsModule>;
