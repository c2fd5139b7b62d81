import { presentFeedback } from '../../runtime/feedback/index.js';
import type { ListedItem, ReviewRow } from './repository.js';
import type {
  ReviewedGenerationResponse,
  ReviewItemResponse,
  ReviewQueueResponse,
  ReviewResponse,
  ReviewRuleResponse,
} from './responses.js';
import type { ReviewedGeneration } from './reviewing.js';
import type { RuleRow } from './rule-repository.js';
import type { QueueWithCounts } from './service.js';

export function presentQueue(queue: QueueWithCounts): ReviewQueueResponse {
  return {
    guid: queue.id,
    name: queue.name,
    description: queue.description,
    questions: queue.questions,
    reviews_per_item: queue.reviewsPerItem,
    blind: queue.blind,
    assignees: queue.assignees,
    dataset: queue.datasetId,
    lease_seconds: queue.leaseSeconds,
    counts: queue.counts,
    created_at: queue.createdAt.toISOString(),
    updated_at: queue.updatedAt.toISOString(),
  };
}

export function presentItem(item: ListedItem): ReviewItemResponse {
  return {
    guid: item.id,
    data_guid: item.generationId,
    status: item.status,
    review_count: item.reviewCount,
    created_at: item.createdAt.toISOString(),
    completed_at: item.completedAt?.toISOString() ?? null,
  };
}

export function presentReviewedGeneration({
  generation,
  feedback,
}: ReviewedGeneration): ReviewedGenerationResponse {
  return {
    guid: generation.id,
    action: generation.actionId,
    version: generation.version,
    input: generation.input,
    output: generation.output,
    full_prompt_sent: generation.fullPromptSent,
    feedback: feedback.map(presentFeedback),
    created_at: generation.createdAt.toISOString(),
  };
}

export function presentReview(review: ReviewRow): ReviewResponse {
  return {
    guid: review.id,
    item: review.itemId,
    reviewer: review.reviewerId,
    answers: review.answers,
    correction: review.correction,
    comment: review.comment,
    created_at: review.createdAt.toISOString(),
  };
}

export function presentRule(rule: RuleRow): ReviewRuleResponse {
  return {
    guid: rule.id,
    queue: rule.queueId,
    action: rule.actionId,
    environment: rule.environment,
    sources: rule.sources,
    when: rule.condition,
    sample_rate: rule.sampleRate,
    backfill_since: rule.backfillSince?.toISOString() ?? null,
    scanned_until: rule.scannedUntil.toISOString(),
    created_at: rule.createdAt.toISOString(),
  };
}
