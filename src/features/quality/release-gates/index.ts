export { createGateReader, type GateEvidence, type GateReader } from './deploy-guard.js';
export { createReleaseGateRepository } from './repository.js';
export { createReleaseGateService, type ReleaseGateService } from './service.js';
