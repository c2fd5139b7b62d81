export { createAuditRepository } from './repository.js';
export {
  type AuditActor,
  type AuditEntry,
  type AuditService,
  actorOf,
  createAuditService,
} from './service.js';
