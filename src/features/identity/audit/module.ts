import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import { createAuditRepository } from './repository.js';
import { auditRoutes } from './routes.js';
import { createAuditService } from './service.js';

/** The audit log: every configuration change, chained so that an edit of the past shows. */
export function createAuditModule(parts: ModuleParts) {
  const audit = createAuditService({
    repository: createAuditRepository(parts.database),
    options: { chainKey: parts.platform.auditChainKey },
  });
  return featureModule({ services: { audit }, routes: { v1: [auditRoutes(audit)] } });
}

export type AuditModule = ReturnType<typeof createAuditModule>;
