import { z } from 'zod';
import { anyJson, guid, promptMessage, timestamp } from '../../../core/wire.js';
import { feedbackResponse } from '../../runtime/feedback/responses.js';

/** What a question asks for (docs/review.md#questions). */
export const questionTypes = ['boolean', 'scale', 'choice', 'text'] as const;

/** Where an item stands: no review yet, some (or a live lease), all it needs. */
export const itemStatuses = ['pending', 'in_review', 'completed'] as const;

const questionResponse = z.strictObject({
  key: z.string(),
  label: z.string(),
  type: z.enum(questionTypes),
  min: z.number().int().optional(),
  max: z.number().int().optional(),
  options: z.array(z.string()).optional(),
  required: z.boolean(),
  evaluator: guid.optional(),
});

const counts = z.strictObject({
  pending: z.number().int(),
  in_review: z.number().int(),
  completed: z.number().int(),
});

export const reviewQueueResponse = z
  .strictObject({
    guid,
    name: z.string(),
    description: z.string(),
    questions: z.array(questionResponse),
    reviews_per_item: z.number().int(),
    blind: z.boolean(),
    assignees: z.array(guid),
    dataset: guid.nullable(),
    lease_seconds: z.number().int(),
    counts,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'ReviewQueue' });

export const reviewItemResponse = z
  .strictObject({
    guid,
    data_guid: guid.describe('The generation under review'),
    status: z.enum(itemStatuses),
    review_count: z.number().int(),
    created_at: timestamp,
    completed_at: timestamp.nullable(),
  })
  .meta({ id: 'ReviewItem' });

/** The generation as a reviewer sees it: what was asked, what was sent and answered, its feedback. */
export const reviewedGenerationResponse = z
  .strictObject({
    guid,
    action: guid.nullable(),
    version: z.number().int().nullable(),
    input: anyJson,
    output: z.string(),
    full_prompt_sent: z.array(promptMessage),
    feedback: z.array(feedbackResponse),
    created_at: timestamp,
  })
  .meta({ id: 'ReviewedGeneration' });

export const reviewResponse = z
  .strictObject({
    guid,
    item: guid,
    reviewer: guid.describe('The person who reviewed'),
    answers: z.record(z.string(), z.union([z.boolean(), z.number(), z.string()])),
    correction: z.string().nullable(),
    comment: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'Review' });

export const leasedItemResponse = z.strictObject({
  item: reviewItemResponse,
  lease_expires_at: timestamp,
  generation: reviewedGenerationResponse,
});

export const itemWithReviewsResponse = reviewItemResponse
  .extend({
    generation: reviewedGenerationResponse,
    reviews: z
      .array(reviewResponse)
      .describe(
        'In a blind queue: others’ reviews only once the caller has reviewed (admins and owners always)',
      ),
  })
  .meta({ id: 'ReviewItemWithReviews' });

export const reviewRuleResponse = z
  .strictObject({
    guid,
    queue: guid,
    action: guid.nullable(),
    environment: z.string().nullable(),
    sources: z.array(z.string()).nullable(),
    when: z.strictObject({
      error: z.literal(true).optional(),
      feedback: z.strictObject({ type: z.string(), value: z.string() }).optional(),
      score_below: z.strictObject({ evaluator: guid, value: z.number() }).optional(),
    }),
    sample_rate: z.number(),
    backfill_since: timestamp.nullable(),
    scanned_until: timestamp.describe('What the rule watches has been read up to here'),
    created_at: timestamp,
  })
  .meta({ id: 'ReviewRule' });

export const progressResponse = z.strictObject({
  reviewers: z.array(
    z.strictObject({
      user: guid,
      reviews: z.number().int(),
      leased: z.number().int().describe('Items the person holds a live lease of'),
    }),
  ),
  counts,
});

const agreementOfQuestion = z.strictObject({
  items: z.number().int().describe('Items with at least two reviews answering the question'),
  percent_agreement: z
    .number()
    .nullable()
    .describe('Agreeing pairs of reviews of one item among all such pairs'),
  kappa: z.number().nullable().describe('Fleiss’ kappa (boolean and choice; null under 2 items)'),
  alpha: z.number().nullable().describe('Krippendorff’s alpha, interval metric (scale; null under 2 items)'),
  evaluator: z
    .strictObject({
      n: z.number().int(),
      agreement: z
        .number()
        .nullable()
        .describe('boolean: the share where score ≥ 0.5 is the majority answer; scale: Pearson’s r'),
    })
    .optional(),
});

export const agreementResponse = z.strictObject({
  questions: z.record(z.string(), agreementOfQuestion),
});

export const toDatasetResponse = z.strictObject({
  dataset: guid,
  version: z.number().int(),
  item: guid.describe('The new dataset item'),
});

export type ReviewQueueResponse = z.output<typeof reviewQueueResponse>;
export type ReviewItemResponse = z.output<typeof reviewItemResponse>;
export type ReviewResponse = z.output<typeof reviewResponse>;
export type ReviewRuleResponse = z.output<typeof reviewRuleResponse>;
export type ReviewedGenerationResponse = z.output<typeof reviewedGenerationResponse>;
export type AgreementResponse = z.output<typeof agreementResponse>;
