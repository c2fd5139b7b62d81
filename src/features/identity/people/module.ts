import { createPort } from '../../../core/port.js';
import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { AuditModule } from '../audit/module.js';
import type { WorkspacesModule } from '../workspaces/module.js';
import { createAccountService, type PersonCredentials } from './accounts.js';
import { memberPrincipals } from './index.js';
import { createMemberService } from './members.js';
import { createPeopleRepository } from './repository.js';
import { peopleRoutes } from './routes.js';

/** People, their memberships and roles; console sessions (made after) end when a person leaves. */
export function createPeopleModule(
  parts: ModuleParts,
  modules: { workspaces: WorkspacesModule; audit: AuditModule },
) {
  const { platform, config } = parts;
  const { workspaces } = modules.workspaces.services;
  const repository = createPeopleRepository(parts.database);
  const endSessions = createPort<PersonCredentials['endSessions']>('end a person’s console sessions');
  const people = {
    repository,
    baseUrl: config.baseUrl,
    mailer: platform.mailer,
    afterCommit: platform.transactions.afterCommit,
    // A removed member's or a deactivated person's keys stop at once on this node (5 s on others).
    membershipChanged: workspaces.forgetAuthentications,
    credentials: { endSessions: endSessions.call, revokeKeys: workspaces.revokeApiKeysOf },
    logger: parts.logger('people'),
  };
  const accounts = createAccountService({
    ...people,
    attempts: platform.attempts,
    firstWorkspaceId: modules.workspaces.shares.firstWorkspaceId,
  });
  const members = createMemberService(people);
  return featureModule({
    services: { accounts, members },
    shares: { members: memberPrincipals(repository) },
    ports: { endSessions },
    routes: { v1: [peopleRoutes(accounts, members, modules.audit.services.audit)] },
  });
}

export type PeopleModule = ReturnType<typeof createPeopleModule>;
