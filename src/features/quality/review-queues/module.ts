import { NotFoundError } from '../../../errors.js';
import type { ActionsModule } from '../../authoring/actions/module.js';
import { featureModule, handles } from '../../feature-module.js';
import type { PeopleModule } from '../../identity/people/module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { FeedbackModule } from '../../runtime/feedback/module.js';
import type { GenerationsModule } from '../../runtime/generations/module.js';
import type { DatasetsModule } from '../datasets/module.js';
import type { EvaluatorsModule } from '../evaluators/module.js';
import { createAnswerCountRepository } from './answer-counts.js';
import { createLeaseRepository } from './lease-repository.js';
import { createAnswerRecounter, reviewAnswerRecountJob } from './recount.js';
import { createReviewReportService } from './report.js';
import { createReviewRepository } from './repository.js';
import { createReviewingService } from './reviewing.js';
import { reviewQueueRoutes } from './routes.js';
import { createRuleRepository } from './rule-repository.js';
import { createReviewRuleService, createRuleSweeper, defaultRulePace, reviewRuleSweepJob } from './rules.js';
import { createReviewQueueService } from './service.js';

/**
 * Human review (docs/review.md): queues of generations that people review, blind and several times
 * over, the rules that fill them in the background, agreement, and reviewed answers into datasets.
 */
export function createReviewQueuesModule(
  parts: ModuleParts,
  modules: {
    people: PeopleModule;
    actions: ActionsModule;
    generations: GenerationsModule;
    feedback: FeedbackModule;
    datasets: DatasetsModule;
    evaluators: EvaluatorsModule;
  },
) {
  const { datasets } = modules.datasets.services;
  const { evaluators } = modules.evaluators.services;
  const members = modules.people.shares.members;
  const repository = createReviewRepository(parts.database);
  const ruleRepository = createRuleRepository(parts.database);
  const answerCounts = createAnswerCountRepository(parts.database);
  const recounts = createAnswerRecounter({
    answerCounts,
    jobs: parts.jobs,
    inTransaction: parts.platform.transactions.run,
    afterCommit: parts.platform.transactions.afterCommit,
  });
  const queues = createReviewQueueService({
    repository,
    requireEvaluator: evaluators.require,
    requireDataset: datasets.require,
    mayReview: async (workspaceId, userId) =>
      (await members.principalOf(workspaceId, userId))?.principal.rights.has('review') ?? false,
    recountAnswers: recounts.schedule,
    inTransaction: parts.platform.transactions.run,
  });
  const reviewing = createReviewingService({
    repository,
    leases: createLeaseRepository(parts.database),
    answerCounts,
    queues,
    // The generation and its feedback asked together: on the embedded database, one turn of its thread.
    generation: async (workspaceId, id) => {
      const [generation, feedback] = await Promise.all([
        modules.generations.services.generations.find(workspaceId, id),
        modules.feedback.services.feedback.listForGenerations(workspaceId, [id]),
      ]);
      if (!generation) throw new NotFoundError('Data not found');
      return { generation, feedback };
    },
    addToDataset: (workspaceId, datasetId, item) =>
      datasets.addItem(workspaceId, datasetId, { ...item, input: item.input as never }),
    inTransaction: parts.platform.transactions.run,
  });
  const reports = createReviewReportService({ repository, answerCounts, queues });
  const rules = createReviewRuleService({
    rules: ruleRepository,
    queues,
    jobs: parts.jobs,
    requireAction: modules.actions.services.actions.require,
    requireEvaluator: evaluators.require,
    afterCommit: parts.platform.transactions.afterCommit,
  });
  const ruleSweeps = createRuleSweeper({
    rules: ruleRepository,
    repository,
    jobs: parts.jobs,
    pace: defaultRulePace,
    logger: parts.logger('review rules'),
  });
  return featureModule({
    services: {
      reviewQueues: queues,
      reviewing,
      reviewReports: reports,
      reviewRules: rules,
      reviewRuleSweeps: ruleSweeps,
    },
    routes: { v1: [reviewQueueRoutes({ queues, reviewing, reports, rules })] },
    jobs: [handles(reviewRuleSweepJob, ruleSweeps), handles(reviewAnswerRecountJob, recounts)],
  });
}

export type ReviewQueuesModule = ReturnType<typeof createReviewQueuesModule>;
