export { createExperimentRepository } from './repository.js';
export { createExperimentService, type Experiment, type ExperimentService } from './service.js';
