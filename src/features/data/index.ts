export { presentGeneration } from './presenters.js';
export { createGenerationRepository } from './repository.js';
export {
  createDataService,
  type DataService,
  type Generation,
  type RunRecord,
  type RunSource,
} from './service.js';
export { createStatisticsService, type StatisticsService } from './statistics.js';
export { createStatisticsRepository } from './statistics-repository.js';
