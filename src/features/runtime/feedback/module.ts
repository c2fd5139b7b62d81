import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { GenerationsModule } from '../generations/module.js';
import { createFeedbackRepository } from './repository.js';
import { feedbackRoutes } from './routes.js';
import { createFeedbackService } from './service.js';

/** Feedback: ratings and corrections of a generation. */
export function createFeedbackModule(parts: ModuleParts, modules: { generations: GenerationsModule }) {
  const { repository } = modules.generations.shares;
  // Feedback asks when a generation was made (and so whether it exists).
  const feedback = createFeedbackService({
    repository: createFeedbackRepository(parts.database),
    generationCreatedAt: async (workspaceId, id) => (await repository.find(workspaceId, id))?.createdAt,
    changed: modules.generations.services.statistics.generationChanged,
  });
  modules.generations.ports.feedbackOf.provide(feedback.listForGenerations);
  return featureModule({ services: { feedback }, routes: { v1: [feedbackRoutes(feedback)] } });
}

export type FeedbackModule = ReturnType<typeof createFeedbackModule>;
