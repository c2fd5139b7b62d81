import {
  type AnswerSums,
  type EvaluatorSums,
  fleissKappa,
  krippendorffAlpha,
  majorityAgreement,
  noAnswers,
  pearson,
  percentAgreement,
} from './agreement.js';
import type { AnswerCountRepository } from './answer-counts.js';
import type { Question } from './questions.js';
import type { ItemCounts, ReviewRepository } from './repository.js';
import type { ReviewQueueService } from './service.js';

export type QuestionAgreement = {
  items: number;
  percent_agreement: number | null;
  kappa: number | null;
  alpha: number | null;
  evaluator?: { n: number; agreement: number | null };
};

export interface ReviewReportService {
  progress(
    workspaceId: string,
    queueId: string,
  ): Promise<{ reviewers: { user: string; reviews: number; leased: number }[]; counts: ItemCounts }>;
  agreement(workspaceId: string, queueId: string): Promise<Record<string, QuestionAgreement>>;
}

/** One question's agreement from its sums (docs/review.md#agreement). */
function questionAgreement(
  question: Question,
  sums: AnswerSums,
  evaluator: EvaluatorSums | undefined,
): QuestionAgreement {
  const categorical = question.type === 'boolean' || question.type === 'choice';
  return {
    items: sums.items,
    percent_agreement: percentAgreement(sums),
    kappa: categorical ? fleissKappa(sums) : null,
    alpha: question.type === 'scale' ? krippendorffAlpha(sums) : null,
    ...(evaluator && {
      evaluator: {
        n: evaluator.items,
        // A choice has no order to compare a score with.
        agreement:
          question.type === 'boolean'
            ? majorityAgreement(evaluator)
            : question.type === 'scale'
              ? pearson(evaluator)
              : null,
      },
    }),
  };
}

export function createReviewReportService(dependencies: {
  repository: ReviewRepository;
  answerCounts: AnswerCountRepository;
  queues: ReviewQueueService;
}): ReviewReportService {
  const { repository, answerCounts, queues } = dependencies;
  return {
    async progress(workspaceId, queueId) {
      const queue = await queues.require(workspaceId, queueId);
      const reviewers = await repository.progress(queue.id);
      for (const assignee of queue.assignees)
        if (!reviewers.some((each) => each.user === assignee))
          reviewers.push({ user: assignee, reviews: 0, leased: 0 });
      const counts = await repository.counts([queue.id]);
      return { reviewers, counts: counts.get(queue.id)! };
    },

    async agreement(workspaceId, queueId) {
      const queue = await queues.require(workspaceId, queueId);
      const sums = await answerCounts.sums(queue.id, queue.reviewsPerItem);
      const result: Record<string, QuestionAgreement> = {};
      for (const question of queue.questions) {
        if (question.type === 'text') continue;
        const evaluator = question.evaluator
          ? await answerCounts.evaluatorSums(queue.id, question.key, question.evaluator)
          : undefined;
        result[question.key] = questionAgreement(
          question,
          sums.get(question.key) ?? noAnswers(queue.reviewsPerItem),
          evaluator,
        );
      }
      return result;
    },
  };
}
