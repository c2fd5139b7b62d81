export { reviewAnswerRecountJob } from './recount.js';
export { createReviewRepository, type ReviewRepository } from './repository.js';
export { createReviewingService, type ReviewingService } from './reviewing.js';
export { createReviewRuleService, reviewRuleSweepJob, sampledBy } from './rules.js';
export { createReviewQueueService, type ReviewQueueService } from './service.js';
