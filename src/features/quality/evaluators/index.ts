export { createCheckRunner } from './check-runner.js';
export {
  type EvaluatorTypeName,
  needsExpectedOutput,
  type Score,
  type ScoringCase,
  type ScoringTools,
  scoreCase,
} from './evaluator-types.js';
export { actionJudge } from './judge.js';
export { presentEvaluator } from './presenters.js';
export { createEvaluatorRepository, type EvaluatorRow } from './repository.js';
export { createEvaluatorService, type EvaluatorService } from './service.js';
export { embeddingSimilarity } from './similarity.js';
