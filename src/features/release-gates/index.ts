export { createReleaseGateRepository } from './repository.js';
export { createReleaseGateService, type GateEvidence, type ReleaseGateService } from './service.js';
