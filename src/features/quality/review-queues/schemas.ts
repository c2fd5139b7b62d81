import { z } from 'zod';
import { guid } from '../../../core/guid.js';
import { paginationQuery } from '../../../core/pagination.js';
import { environment } from '../../authoring/actions/index.js';
import { answerValue } from './questions.js';
import { itemStatuses, questionTypes } from './responses.js';

const question = z
  .strictObject({
    key: z.string().regex(/^[a-z0-9_]{1,64}$/, 'lower-case letters, digits and "_", at most 64 characters'),
    label: z.string().min(1).max(500),
    type: z.enum(questionTypes),
    min: z.number().int().optional().describe('scale: the lowest answer (default 1)'),
    max: z.number().int().optional().describe('scale: the highest answer (default 5)'),
    options: z
      .array(z.string().min(1).max(200))
      .min(2)
      .max(20)
      .refine((options) => new Set(options).size === options.length, 'names an option twice')
      .optional()
      .describe('choice: 2–20 distinct answers'),
    required: z.boolean().optional().describe('default true; a text question defaults to false'),
    evaluator: guid.optional().describe('The evaluator whose automatic score this question is compared with'),
  })
  .superRefine((given, context) => {
    const issue = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (given.type !== 'scale') {
      if (given.min !== undefined) issue('min', 'only a scale question has bounds');
      if (given.max !== undefined) issue('max', 'only a scale question has bounds');
    } else if ((given.min ?? 1) >= (given.max ?? 5)) {
      issue('max', `must be above min (${given.min ?? 1})`);
    }
    if (given.type === 'choice' && given.options === undefined)
      issue('options', 'a choice question needs 2–20 options');
    if (given.type !== 'choice' && given.options !== undefined)
      issue('options', 'only a choice question has options');
    if (given.type === 'text' && given.evaluator !== undefined)
      issue('evaluator', 'a text question is not compared with a score');
  });

const questions = z
  .array(question)
  .min(1)
  .max(50)
  .superRefine((list, context) => {
    const seen = new Set<string>();
    list.forEach((each, index) => {
      if (seen.has(each.key))
        context.addIssue({ code: 'custom', path: [index, 'key'], message: `"${each.key}" is asked twice` });
      seen.add(each.key);
    });
  });

export type QuestionInput = z.infer<typeof question>;

const reviewsPerItem = z.number().int().min(1).max(5);
const leaseSeconds = z.number().int().min(30).max(3600);
const assignees = z
  .array(guid)
  .max(500)
  .refine((ids) => new Set(ids).size === ids.length, 'names a person twice')
  .describe('The people who review it; empty: every member who may review');

/** `POST /v1/review_queues`. */
export const createQueueBody = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().max(5_000).optional(),
  questions,
  reviews_per_item: reviewsPerItem.optional().describe('How many people review each item (1–5, default 1)'),
  blind: z
    .boolean()
    .optional()
    .describe('A reviewer sees others’ reviews of an item only after their own (default true)'),
  assignees: assignees.optional(),
  dataset: guid.optional().describe('Items that complete with a correction are added to this dataset'),
  lease_seconds: leaseSeconds
    .optional()
    .describe('How long `next` holds an item for its reviewer (30–3600, default 600)'),
});

/** `PUT /v1/review_queues/{guid}`: any of the fields; `dataset: null` stops the additions. */
export const changeQueueBody = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  description: z.string().max(5_000).optional(),
  questions: questions.optional(),
  reviews_per_item: reviewsPerItem.optional(),
  blind: z.boolean().optional(),
  assignees: assignees.optional(),
  dataset: guid.nullable().optional(),
  lease_seconds: leaseSeconds.optional(),
});

export type NewQueue = z.infer<typeof createQueueBody>;
export type QueueChange = z.infer<typeof changeQueueBody>;

export const addItemsBody = z.strictObject({
  data: z
    .array(guid)
    .min(1)
    .max(1_000)
    .describe('Generation GUIDs; one already in the queue is not added again'),
});

export type ItemStatus = (typeof itemStatuses)[number];

export const itemListQuery = paginationQuery.extend({ status: z.enum(itemStatuses).optional() });

/** Generations of these sources are never production traffic: no rule picks them. */
export const unreviewedSources = ['evaluation', 'backtest', 'shadow', 'playground'] as const;

/** `POST /v1/review_queues/{guid}/rules`. */
export const createRuleBody = z.strictObject({
  action: guid.optional().describe('Only this Action’s generations'),
  environment: environment.optional().describe('Only generations run in this environment'),
  sources: z
    .array(z.string().min(1).max(64))
    .min(1)
    .max(20)
    .optional()
    .describe('Only generations of these sources (sync, stream, async, gateway, otel, …)'),
  when: z
    .strictObject({
      error: z.literal(true).optional().describe('Only generations stored with an error'),
      feedback: z
        .strictObject({ type: z.string().min(1).max(64), value: z.string().min(1).max(256) })
        .optional()
        .describe('When this feedback arrives'),
      score_below: z
        .strictObject({ evaluator: guid, value: z.number() })
        .optional()
        .describe('When this evaluator’s score arrives below the value'),
    })
    .optional(),
  sample_rate: z.number().gt(0, 'must be above 0').max(1).describe('The share of matching generations added'),
  backfill_since: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('Also adds, once, the matching generations stored since then'),
});

export type NewRule = z.infer<typeof createRuleBody>;

/** `POST /v1/review_queues/{guid}/items/{item}/reviews`. */
export const reviewBody = z.strictObject({
  answers: z.record(z.string(), answerValue),
  correction: z.string().max(100_000).optional().describe('The output as it should have been'),
  comment: z.string().max(10_000).optional(),
});

export type NewReview = z.infer<typeof reviewBody>;

/** `POST /v1/review_queues/{guid}/items/{item}/to_dataset`. */
export const toDatasetBody = z.strictObject({
  dataset: guid.optional().describe('Default: the queue’s dataset'),
  expected_output: z.string().max(100_000).optional(),
});
