export { type Comparison, compare } from './comparison.js';
export { type ComparisonRepository, createComparisonRepository } from './comparison-repository.js';
export {
  createItemRunner,
  type EvaluationItemPayload,
  evaluationItemJob,
  itemJobKey,
} from './item-job.js';
export { createEvaluationRepository, type EvaluationRepository, type EvaluationRow } from './repository.js';
export { createEvaluationService, type EvaluationService, type EvaluationSources } from './service.js';
