import { randomUUID } from 'node:crypto';
import type { Page, Pagination } from '../../../core/pagination.js';
import type { Principal } from '../../../core/roles.js';
import { NotFoundError, ValidationError } from '../../../errors.js';
import { assertMayOpen, seesEveryQueue } from './access.js';
import { type Question, questionOf } from './questions.js';
import type { ItemCounts, ListedItem, QueueRow, ReviewRepository } from './repository.js';
import type { ItemStatus, NewQueue, QueueChange } from './schemas.js';

export type QueueWithCounts = QueueRow & { counts: ItemCounts };

export interface ReviewQueueService {
  create(workspaceId: string, creatorId: string, fields: NewQueue): Promise<QueueWithCounts>;
  /** The queues the principal may open: every one for viewers and above, a reviewer's own. */
  list(workspaceId: string, principal: Principal, pagination: Pagination): Promise<Page<QueueWithCounts>>;
  /** The queue, or 404; 403 when the principal may not open it. */
  open(workspaceId: string, id: string, principal: Principal): Promise<QueueRow>;
  /** The queue for its managers (no principal check beyond the route's right), or 404. */
  require(workspaceId: string, id: string): Promise<QueueRow>;
  withCounts(queue: QueueRow): Promise<QueueWithCounts>;
  change(workspaceId: string, id: string, fields: QueueChange): Promise<QueueWithCounts>;
  remove(workspaceId: string, id: string): Promise<void>;
  addItems(workspaceId: string, id: string, generationIds: string[]): Promise<{ added: number }>;
  listItems(
    workspaceId: string,
    id: string,
    principal: Principal,
    status: ItemStatus | undefined,
    pagination: Pagination,
  ): Promise<Page<ListedItem>>;
}

/** The questions agreement counts the answers of, by key and type (every one but `text`). */
function countedQuestionsOf(questions: Question[]): string {
  return JSON.stringify(
    questions.filter((question) => question.type !== 'text').map((question) => [question.key, question.type]),
  );
}

export function createReviewQueueService(dependencies: {
  repository: ReviewRepository;
  /** A 404 unless the workspace has the evaluator. */
  requireEvaluator: (workspaceId: string, id: string) => Promise<unknown>;
  /** A 404 unless the workspace has the dataset. */
  requireDataset: (workspaceId: string, id: string) => Promise<unknown>;
  /** Whether the person is a member of the workspace who may review (a reviewer or above). */
  mayReview: (workspaceId: string, userId: string) => Promise<boolean>;
  /** Counts the queue's reviews again for agreement (recount.ts), after its questions changed. */
  recountAnswers: (workspaceId: string, queueId: string) => Promise<void>;
  /** Runs work in one transaction (joining the request's, when it has one). */
  inTransaction: <T>(work: () => Promise<T>) => Promise<T>;
}): ReviewQueueService {
  const { repository, requireEvaluator, requireDataset, mayReview, recountAnswers, inTransaction } =
    dependencies;

  async function require(workspaceId: string, id: string): Promise<QueueRow> {
    const queue = await repository.findQueue(workspaceId, id);
    if (!queue) throw new NotFoundError('Review queue not found');
    return queue;
  }

  async function withCounts(queue: QueueRow): Promise<QueueWithCounts> {
    const counts = await repository.counts([queue.id]);
    return { ...queue, counts: counts.get(queue.id)! };
  }

  /** Every reference a queue's fields make exists in the workspace, before anything is stored. */
  async function checkReferences(workspaceId: string, fields: QueueChange): Promise<void> {
    for (const question of fields.questions ?? [])
      if (question.evaluator) await requireEvaluator(workspaceId, question.evaluator);
    if (fields.dataset) await requireDataset(workspaceId, fields.dataset);
    for (const [index, userId] of (fields.assignees ?? []).entries())
      if (!(await mayReview(workspaceId, userId)))
        throw new ValidationError(`assignees.${index}`, 'is not a member of this workspace who may review');
  }

  return {
    async create(workspaceId, creatorId, fields) {
      await checkReferences(workspaceId, fields);
      const queue = await repository.insertQueue({
        id: randomUUID(),
        workspaceId,
        name: fields.name,
        description: fields.description ?? '',
        questions: fields.questions.map(questionOf),
        reviewsPerItem: fields.reviews_per_item ?? 1,
        blind: fields.blind ?? true,
        assignees: fields.assignees ?? [],
        datasetId: fields.dataset ?? null,
        leaseSeconds: fields.lease_seconds ?? 600,
        createdById: creatorId,
      });
      return { ...queue, counts: { pending: 0, in_review: 0, completed: 0 } };
    },

    async list(workspaceId, principal, { skip, limit }) {
      const assignedTo = seesEveryQueue(principal) ? undefined : (principal.person?.id ?? '');
      const page = await repository.listQueues(workspaceId, skip, limit, assignedTo);
      const counts = await repository.counts(page.rows.map((queue) => queue.id));
      return {
        rows: page.rows.map((queue) => ({ ...queue, counts: counts.get(queue.id)! })),
        total: page.total,
      };
    },

    async open(workspaceId, id, principal) {
      const queue = await require(workspaceId, id);
      assertMayOpen(queue, principal);
      return queue;
    },

    require,
    withCounts,

    async change(workspaceId, id, fields) {
      const before = await require(workspaceId, id);
      await checkReferences(workspaceId, fields);
      const queue = await inTransaction(async () => {
        const changed = await repository.updateQueue(workspaceId, id, {
          ...(fields.name !== undefined && { name: fields.name }),
          ...(fields.description !== undefined && { description: fields.description }),
          ...(fields.questions !== undefined && { questions: fields.questions.map(questionOf) }),
          ...(fields.reviews_per_item !== undefined && { reviewsPerItem: fields.reviews_per_item }),
          ...(fields.blind !== undefined && { blind: fields.blind }),
          ...(fields.assignees !== undefined && { assignees: fields.assignees }),
          ...(fields.dataset !== undefined && { datasetId: fields.dataset }),
          ...(fields.lease_seconds !== undefined && { leaseSeconds: fields.lease_seconds }),
        });
        if (!changed) throw new NotFoundError('Review queue not found');
        if (changed.reviewsPerItem !== before.reviewsPerItem)
          await repository.recountCompletion(changed.id, changed.reviewsPerItem);
        if (countedQuestionsOf(changed.questions) !== countedQuestionsOf(before.questions))
          await recountAnswers(workspaceId, changed.id);
        return changed;
      });
      return withCounts(queue);
    },

    async remove(workspaceId, id) {
      if (!(await repository.updateQueue(workspaceId, id, { deletedAt: new Date() })))
        throw new NotFoundError('Review queue not found');
    },

    async addItems(workspaceId, id, generationIds) {
      const queue = await require(workspaceId, id);
      const unique = [...new Set(generationIds)];
      const found = await repository.generationsOf(workspaceId, unique);
      const missing = unique.find((generationId) => !found.has(generationId));
      if (missing) throw new NotFoundError(`Generation ${missing} not found`);
      return { added: await repository.addItems(queue, unique) };
    },

    async listItems(workspaceId, id, principal, status, { skip, limit }) {
      const queue = await require(workspaceId, id);
      assertMayOpen(queue, principal);
      return repository.listItems(queue.id, status, skip, limit);
    },
  };
}
