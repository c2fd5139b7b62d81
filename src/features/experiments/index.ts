export { createExperimentRepository } from './repository.js';
export { createExperimentService, type ExperimentService } from './service.js';
