import { fleissKappa, krippendorffAlpha, majority, pearson, percentAgreement } from './agreement.js';
import type { Answer, Question } from './questions.js';
import type { ItemCounts, QueueRow, ReviewRepository } from './repository.js';
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

type ReviewedAnswers = { itemId: string; generationId: string; answers: Record<string, Answer> };

/** The answers to one question, grouped by item, of the reviews that answered it. */
function unitsOf(
  reviews: ReviewedAnswers[],
  key: string,
): Map<string, { generationId: string; answers: Answer[] }> {
  const units = new Map<string, { generationId: string; answers: Answer[] }>();
  for (const review of reviews) {
    const answer = review.answers[key];
    if (answer === undefined) continue;
    const unit = units.get(review.itemId) ?? { generationId: review.generationId, answers: [] };
    unit.answers.push(answer);
    units.set(review.itemId, unit);
  }
  return units;
}

/** How an evaluator's score agrees with the reviewers (docs/review.md#agreement). */
function evaluatorAgreement(
  question: Question,
  units: Map<string, { generationId: string; answers: Answer[] }>,
  scores: Map<string, number>,
): { n: number; agreement: number | null } {
  const scored = [...units.values()].filter((unit) => scores.has(unit.generationId));
  if (question.type === 'boolean') {
    const agreeing = scored.filter(
      (unit) => majority(unit.answers) === scores.get(unit.generationId)! >= 0.5,
    ).length;
    return { n: scored.length, agreement: scored.length === 0 ? null : agreeing / scored.length };
  }
  if (question.type === 'scale') {
    const span = question.max! - question.min!;
    const pairs = scored.map((unit): [number, number] => {
      const mean = (unit.answers as number[]).reduce((sum, value) => sum + value, 0) / unit.answers.length;
      return [scores.get(unit.generationId)!, (mean - question.min!) / span];
    });
    return { n: scored.length, agreement: pearson(pairs) };
  }
  // A choice has no order to compare a score with.
  return { n: scored.length, agreement: null };
}

function questionAgreement(
  queue: QueueRow,
  question: Question,
  reviews: ReviewedAnswers[],
  scores: Map<string, number> | undefined,
): QuestionAgreement {
  const units = unitsOf(reviews, question.key);
  const pairable = [...units.values()].map((unit) => unit.answers).filter((answers) => answers.length >= 2);
  const full = pairable.filter((answers) => answers.length === queue.reviewsPerItem);
  const categorical = question.type === 'boolean' || question.type === 'choice';
  return {
    items: pairable.length,
    percent_agreement: percentAgreement(pairable),
    kappa: categorical ? fleissKappa(full) : null,
    alpha: question.type === 'scale' ? krippendorffAlpha(pairable as number[][]) : null,
    ...(scores && { evaluator: evaluatorAgreement(question, units, scores) }),
  };
}

export function createReviewReportService(dependencies: {
  repository: ReviewRepository;
  queues: ReviewQueueService;
}): ReviewReportService {
  const { repository, queues } = dependencies;
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
      const reviews = await repository.reviewsOfQueue(queue.id);
      const result: Record<string, QuestionAgreement> = {};
      for (const question of queue.questions) {
        if (question.type === 'text') continue;
        const scores = question.evaluator
          ? await repository.scoresOf(queue.id, question.evaluator)
          : undefined;
        result[question.key] = questionAgreement(queue, question, reviews, scores);
      }
      return result;
    },
  };
}
