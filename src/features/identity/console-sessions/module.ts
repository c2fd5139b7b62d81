import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { AuditModule } from '../audit/module.js';
import type { PeopleModule } from '../people/module.js';
import type { WorkspacesModule } from '../workspaces/module.js';
import { consolePeopleRoutes } from './link-routes.js';
import { createConsoleSessionRepository } from './repository.js';
import { consoleSessionRoutes } from './routes.js';
import { createConsoleSessionService } from './service.js';
import { createSingleSignOn } from './single-sign-on.js';
import { singleSignOnRoutes } from './single-sign-on-routes.js';

/** The console's sign-in: sessions by password, single-use link, single sign-on or API key. */
export function createConsoleSessionsModule(
  parts: ModuleParts,
  modules: { workspaces: WorkspacesModule; audit: AuditModule; people: PeopleModule },
) {
  const { config, platform } = parts;
  const { workspaces } = modules.workspaces.services;
  const { audit } = modules.audit.services;
  const { accounts } = modules.people.services;
  const consoleSessions = createConsoleSessionService({
    repository: createConsoleSessionRepository(parts.database),
    workspaces,
    members: modules.people.shares.members,
    attempts: platform.attempts,
    limits: {
      idleMs: config.consoleSessionIdleMs,
      maximumMs: config.consoleSessionMaxMs,
      perKey: config.consoleSessionsPerKey,
      signInsPerMinute: config.consoleSignInsPerMinute,
    },
    logger: parts.logger('console-sessions'),
  });
  modules.people.ports.endSessions.provide(consoleSessions.endSessionsOf);
  // The API's routes accept a console session as well as a key (src/app.ts mounts them with it).
  const signIns = {
    sessions: consoleSessions,
    secureCookie: config.baseUrl.startsWith('https:'),
    publicOrigin: config.baseUrlConfigured ? new URL(config.baseUrl).origin : undefined,
  };
  const { oidc, consoleKeySignIn } = config.people;
  const inTransaction = platform.transactions.run;
  return featureModule({
    services: { consoleSessions },
    shares: { signIns },
    routes: {
      console: [
        consoleSessionRoutes(signIns, {
          accounts,
          audit,
          keySignIn: consoleKeySignIn,
          sso: oidc !== undefined,
        }),
        ...(oidc
          ? [
              singleSignOnRoutes(signIns, {
                sso: createSingleSignOn(oidc, config.baseUrl, platform.signer),
                accounts,
                audit,
                workspaceId: async () => (await workspaces.findWorkspace('default')).id,
                roles: { defaultRole: oidc.defaultRole, claimConfigured: oidc.roleClaim !== undefined },
                inTransaction,
                baseUrl: config.baseUrl,
              }),
            ]
          : []),
        consolePeopleRoutes(signIns, { accounts, audit, inTransaction }),
      ],
    },
  });
}

export type ConsoleSessionsModule = ReturnType<typeof createConsoleSessionsModule>;
