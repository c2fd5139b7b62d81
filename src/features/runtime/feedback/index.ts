export { presentFeedback } from './presenters.js';
export { createFeedbackRepository } from './repository.js';
export {
  createFeedbackService,
  type Feedback,
  type FeedbackService,
  type GenerationLookup,
} from './service.js';
