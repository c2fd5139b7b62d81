import { createPort } from '../../../core/port.js';
import { tracedCallCost } from '../../../llm/prices.js';
import type { ActionsModule } from '../../authoring/actions/module.js';
import type { AppsModule } from '../../authoring/apps/module.js';
import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { FeedbackService } from '../feedback/index.js';
import type { SessionsModule } from '../sessions/module.js';
import { createGenerationRepository, lastGenerationAt } from './repository.js';
import { generationRoutes, sessionGenerationListRoute } from './routes.js';
import { createScoreRepository } from './score-repository.js';
import { createGenerationService, type LoggedCallTracer } from './service.js';
import { createStatisticsService } from './statistics.js';
import { createStatisticsRepository } from './statistics-repository.js';

/**
 * Generations: every stored model answer, its scores, and the Dashboard's statistics. The feedback
 * (made next) lists each one's ratings, and the traces (a wing above) make a logged call's trace:
 * both provide their port.
 */
export function createGenerationsModule(
  parts: ModuleParts,
  modules: { apps: AppsModule; actions: ActionsModule; sessions: SessionsModule },
) {
  const { actions } = modules.actions.services;
  const repository = createGenerationRepository(parts.database);
  const feedbackOf = createPort<FeedbackService['listForGenerations']>('the feedback of generations');
  const loggedTraces = createPort<LoggedCallTracer>('the traces of logged calls');
  // Feedback and edits of stored generations tell the statistics (the Dashboard's figures) which
  // finished day to sum again.
  const statistics = createStatisticsService({
    repository: createStatisticsRepository(parts.database),
    requireAction: actions.require,
  });
  const generations = createGenerationService({
    repository,
    feedback: { listForGenerations: feedbackOf.call },
    owners: {
      requireApp: modules.apps.services.apps.require,
      requireAction: actions.require,
      requireSession: modules.sessions.services.sessions.requireForRun,
      requireVersion: actions.savedBy,
    },
    changed: statistics.generationChanged,
    priceOf: tracedCallCost,
    loggedTraces: loggedTraces.call,
  });
  // The Action listing's `last_run_at` is a subquery over this feature's table.
  modules.actions.ports.lastRunAt.provide(lastGenerationAt);
  return featureModule({
    services: { generations, statistics },
    shares: { repository, scores: createScoreRepository(parts.database) },
    ports: { feedbackOf, loggedTraces },
    routes: { v1: [generationRoutes(generations, statistics), sessionGenerationListRoute(generations)] },
  });
}

export type GenerationsModule = ReturnType<typeof createGenerationsModule>;
