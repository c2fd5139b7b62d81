import { createPort } from '../../../core/port.js';
import { featureModule } from '../../feature-module.js';
import type { ContextsModule } from '../../knowledge/contexts/module.js';
import type { ModuleParts } from '../../module-parts.js';
import { createContextSearcher } from './adapters.js';
import type { ReferenceChecks } from './metadata.js';
import { createSkillRepository } from './repository.js';
import { skillRoutes } from './routes.js';
import { createSkillService } from './service.js';
import { createSkillTypes } from './skill-types.js';
import { skillToolSource } from './tool-source.js';
import type { ActionRunner } from './types/action.js';

/** An HTTP skill reads at most this much of a response (the model sees 16k characters of it). */
const skillResponseLimitBytes = 1024 * 1024;

/**
 * Skills: tools a version offers its model. A Skill of type `action` runs another Action, and its
 * settings name one: the Actions (made after) and the runs (a wing above) provide those two ports.
 */
export function createSkillsModule(parts: ModuleParts, modules: { contexts: ContextsModule }) {
  const repository = createSkillRepository(parts.database);
  const runAction = createPort<ActionRunner>('run an Action for a Skill');
  const findAction = createPort<ReferenceChecks['actions']['find']>('find the Action a Skill names');
  const skills = createSkillService({
    repository,
    secretBox: parts.platform.secretBox,
    types: createSkillTypes({
      fetch: parts.outboundFetch(skillResponseLimitBytes),
      searchContext: createContextSearcher(modules.contexts.shares.contextTexts),
      runAction: runAction.call,
    }),
    references: { contexts: modules.contexts.services.contexts, actions: { find: findAction.call } },
  });
  return featureModule({
    services: { skills },
    shares: { repository, toolSource: skillToolSource(skills) },
    ports: { runAction, findAction },
    routes: { v1: [skillRoutes(skills)] },
  });
}

export type SkillsModule = ReturnType<typeof createSkillsModule>;
