import { randomUUID } from 'node:crypto';
import type { Principal } from '../../../core/roles.js';
import { ConflictError, NotFoundError, ValidationError } from '../../../errors.js';
import type { Feedback } from '../../runtime/feedback/index.js';
import type { Generation } from '../../runtime/generations/index.js';
import { assertMayOpen, assertMayReview, reviewerOf, seesBlindReviews } from './access.js';
import type { AnswerCountRepository } from './answer-counts.js';
import type { LeasedItem, LeaseRepository } from './lease-repository.js';
import { type Answer, checkAnswers, type Question } from './questions.js';
import type { ListedItem, QueueRow, ReviewRepository, ReviewRow } from './repository.js';
import type { NewReview } from './schemas.js';
import type { ReviewQueueService } from './service.js';

/** A generation with what a reviewer reads beside it. */
export type ReviewedGeneration = { generation: Generation; feedback: Feedback[] };

export type DatasetAddition = { dataset: string; version: number; item: string };

export interface ReviewingService {
  /** Leases the next item for the principal, or undefined when none is left for them. */
  next(
    workspaceId: string,
    queueId: string,
    principal: Principal,
  ): Promise<{ item: LeasedItem; generation: ReviewedGeneration } | undefined>;
  item(
    workspaceId: string,
    queueId: string,
    itemId: string,
    principal: Principal,
  ): Promise<{ item: ListedItem; generation: ReviewedGeneration; reviews: ReviewRow[] }>;
  review(
    workspaceId: string,
    queueId: string,
    itemId: string,
    principal: Principal,
    fields: NewReview,
  ): Promise<ReviewRow>;
  release(workspaceId: string, queueId: string, itemId: string, principal: Principal): Promise<void>;
  toDataset(
    workspaceId: string,
    queueId: string,
    itemId: string,
    fields: { dataset?: string; expected_output?: string },
  ): Promise<DatasetAddition>;
}

/** The answers agreement counts: every question's but a `text` one's. */
function countedAnswers(questions: Question[], answers: Record<string, Answer>): Record<string, Answer> {
  const counted = questions.filter((question) => question.type !== 'text' && question.key in answers);
  return Object.fromEntries(counted.map((question) => [question.key, answers[question.key]!]));
}

export function createReviewingService(dependencies: {
  repository: ReviewRepository;
  leases: LeaseRepository;
  answerCounts: AnswerCountRepository;
  queues: ReviewQueueService;
  /** The generation with its feedback, or 404 (the generations feature). */
  generation: (workspaceId: string, id: string) => Promise<ReviewedGeneration>;
  /** Adds one item to a dataset as a new version (the datasets feature). */
  addToDataset: (
    workspaceId: string,
    datasetId: string,
    item: { input: unknown; expected_output: string; metadata: Record<string, unknown> },
  ) => Promise<{ version: number; item: string }>;
  /** Runs work in one transaction (joining the request's, when it has one). */
  inTransaction: <T>(work: () => Promise<T>) => Promise<T>;
}): ReviewingService {
  const { repository, leases, answerCounts, queues, generation, addToDataset, inTransaction } = dependencies;

  async function requireItem(queue: QueueRow, itemId: string): Promise<ListedItem> {
    const item = await repository.findItem(queue.id, itemId);
    if (!item) throw new NotFoundError('Review item not found');
    return item;
  }

  /** The item's generation and reviews as a dataset item: the latest correction, else the output. */
  async function addItemToDataset(
    queue: QueueRow,
    item: ListedItem,
    datasetId: string,
    expectedOutput: string | undefined,
  ): Promise<DatasetAddition> {
    const { generation: reviewed } = await generation(queue.workspaceId, item.generationId);
    const itemReviews = await repository.reviewsOf(item.id);
    const corrected = itemReviews.filter((each) => each.correction !== null).at(-1)?.correction;
    const added = await addToDataset(queue.workspaceId, datasetId, {
      input: reviewed.input,
      expected_output: expectedOutput ?? corrected ?? reviewed.output,
      metadata: {
        review_queue: queue.id,
        review_item: item.id,
        data_guid: item.generationId,
        reviewers: itemReviews.map((each) => each.reviewerId),
      },
    });
    return { dataset: datasetId, ...added };
  }

  return {
    async next(workspaceId, queueId, principal) {
      const queue = await queues.require(workspaceId, queueId);
      assertMayReview(queue, principal);
      const reviewer = reviewerOf(principal);
      const item = await leases.take(queue, reviewer);
      if (!item) return undefined;
      return { item, generation: await generation(workspaceId, item.generationId) };
    },

    async item(workspaceId, queueId, itemId, principal) {
      const queue = await queues.require(workspaceId, queueId);
      assertMayOpen(queue, principal);
      const item = await requireItem(queue, itemId);
      const all = await repository.reviewsOf(item.id);
      const person = principal.person?.id;
      const reviewedByCaller = person !== undefined && all.some((each) => each.reviewerId === person);
      const shown = !queue.blind || reviewedByCaller || seesBlindReviews(principal) ? all : [];
      return { item, generation: await generation(workspaceId, item.generationId), reviews: shown };
    },

    async review(workspaceId, queueId, itemId, principal, fields) {
      const queue = await queues.require(workspaceId, queueId);
      assertMayReview(queue, principal);
      const reviewer = reviewerOf(principal);
      const answers = checkAnswers(queue.questions, fields.answers);
      return inTransaction(async () => {
        const item = await repository.lockItem(queue.id, itemId);
        if (!item) throw new NotFoundError('Review item not found');
        if (item.completedAt !== null)
          throw new ConflictError('This item is completed: it has all its reviews');
        if (item.reviewedBy.includes(reviewer))
          throw new ConflictError('You have reviewed this item already');
        const holdsLease = item.leases.some(
          (lease) => lease.reviewer === reviewer && new Date(lease.expires_at).getTime() > Date.now(),
        );
        if (!holdsLease && item.reviewCount + leases.liveLeasesOf(item, reviewer) >= queue.reviewsPerItem)
          throw new ConflictError(
            'The reviews this item still needs are leased to others: take the next item',
          );
        const review = await repository.insertReview(
          {
            id: randomUUID(),
            workspaceId,
            queueId: queue.id,
            itemId: item.id,
            reviewerId: reviewer,
            answers,
            correction: fields.correction ?? null,
            comment: fields.comment ?? null,
          },
          queue.reviewsPerItem,
        );
        const completes = item.reviewCount + 1 >= queue.reviewsPerItem;
        if (completes && queue.datasetId) {
          const itemReviews = await repository.reviewsOf(item.id);
          if (itemReviews.some((each) => each.correction !== null))
            await addItemToDataset(queue, item, queue.datasetId, undefined);
        }
        // Last, so the queue's rows of sums it locks are held only until the commit.
        await answerCounts.count(queue.id, item.id, countedAnswers(queue.questions, answers));
        return review;
      });
    },

    async release(workspaceId, queueId, itemId, principal) {
      const queue = await queues.require(workspaceId, queueId);
      assertMayReview(queue, principal);
      const reviewer = reviewerOf(principal);
      await requireItem(queue, itemId);
      if (!(await leases.release(queue.id, itemId, reviewer)))
        throw new ConflictError('You hold no lease of this item');
    },

    async toDataset(workspaceId, queueId, itemId, fields) {
      const queue = await queues.require(workspaceId, queueId);
      const item = await requireItem(queue, itemId);
      const datasetId = fields.dataset ?? queue.datasetId;
      if (!datasetId) throw new ValidationError('dataset', 'the queue has no dataset: name one');
      return addItemToDataset(queue, item, datasetId, fields.expected_output);
    },
  };
}
