export { presentGeneration } from './presenters.js';
export { createGenerationRepository, lastGenerationAt } from './repository.js';
export { createScoreRepository, type NewScore, type ScoreRepository } from './score-repository.js';
export {
  createGenerationService,
  type Generation,
  type GenerationService,
  type LoggedCall,
  type RunRecord,
  type RunSource,
  type TracedGeneration,
} from './service.js';
export { createStatisticsService, type StatisticsService } from './statistics.js';
export { createStatisticsRepository } from './statistics-repository.js';
