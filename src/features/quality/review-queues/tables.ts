import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, deletedAt, updatedAt } from '../../../platform/database/columns.js';
import { tenantKey } from '../../identity/workspaces/tables.js';
import { generations } from '../../runtime/generations/tables.js';
import type { Question, RuleCondition } from './questions.js';

/**
 * A review queue (docs/review.md): generations people review against the queue's questions, each
 * by `reviews_per_item` people. `assignees` empty: every member who may review.
 */
export const reviewQueues = pgTable(
  'review_queues',
  {
    ...tenantKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    questions: jsonb('questions').$type<Question[]>().notNull(),
    reviewsPerItem: integer('reviews_per_item').notNull(),
    blind: boolean('blind').notNull(),
    assignees: jsonb('assignees').$type<string[]>().notNull().default([]),
    /** The dataset an item that completes with a correction is added to. */
    datasetId: uuid('dataset_id'),
    leaseSeconds: integer('lease_seconds').notNull(),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: deletedAt(),
  },
  (table) => [index('review_queues_workspace_index').on(table.workspaceId, table.createdAt)],
);

/** A live or lapsed lease of an item: who holds it and until when. */
export type ReviewLease = { reviewer: string; expires_at: string };

/**
 * One generation in one queue. Its leases and its reviewers are columns of its own row, so `next`
 * decides from this row alone, under its lock: a lease taken meanwhile on another node is seen
 * (docs/review.md#leases).
 */
export const reviewItems = pgTable(
  'review_items',
  {
    ...tenantKey(),
    queueId: uuid('queue_id')
      .notNull()
      .references(() => reviewQueues.id, { onDelete: 'cascade' }),
    generationId: uuid('generation_id')
      .notNull()
      .references(() => generations.id, { onDelete: 'cascade' }),
    leases: jsonb('leases').$type<ReviewLease[]>().notNull().default([]),
    /**
     * Read from `leases` on every change of them, so the hot paths need no JSON: who holds one (the
     * renewal's lookup, indexed) and when the last ends (an item's status, the queue's counts).
     */
    leaseHolders: text('lease_holders').array().notNull().default(sql`'{}'::text[]`),
    leasedUntil: timestamp('leased_until', { withTimezone: true, mode: 'date' }),
    reviewedBy: text('reviewed_by').array().notNull().default(sql`'{}'::text[]`),
    reviewCount: integer('review_count').notNull().default(0),
    /** Who released it unreviewed (the console's skip): `next` offers it to them after the rest. */
    skippedBy: text('skipped_by').array().notNull().default(sql`'{}'::text[]`),
    /** The order items were added in (many are added by one statement, at one instant). */
    position: bigint('position', { mode: 'number' }).generatedAlwaysAsIdentity(),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    unique('review_items_generation_key').on(table.queueId, table.generationId),
    index('review_items_queue_index').on(table.queueId, table.position),
    // `next` walks a queue's open items in order and stops at the first it may lease.
    index('review_items_open_index')
      .on(table.queueId, table.position)
      .where(sql`${table.completedAt} IS NULL`),
    index('review_items_holders_index').using('gin', table.leaseHolders),
  ],
);

/** One person's review of one item: their answers, and a corrected output when they gave one. */
export const reviews = pgTable(
  'reviews',
  {
    ...tenantKey(),
    queueId: uuid('queue_id')
      .notNull()
      .references(() => reviewQueues.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id')
      .notNull()
      .references(() => reviewItems.id, { onDelete: 'cascade' }),
    reviewerId: text('reviewer_id').notNull(),
    answers: jsonb('answers').$type<Record<string, boolean | number | string>>().notNull(),
    correction: text('correction'),
    comment: text('comment'),
    createdAt: createdAt(),
  },
  (table) => [
    unique('reviews_reviewer_key').on(table.itemId, table.reviewerId),
    index('reviews_queue_index').on(table.queueId, table.itemId),
  ],
);

/**
 * A rule that fills a queue in the background: generations stored after it (or since its backfill)
 * that match, sampled. `scanned_until`/`scanned_id` mark the last row a sweep read, of the stream the
 * rule watches: generations, feedback, or scores (rules.ts).
 */
export const reviewRules = pgTable(
  'review_rules',
  {
    ...tenantKey(),
    queueId: uuid('queue_id')
      .notNull()
      .references(() => reviewQueues.id, { onDelete: 'cascade' }),
    actionId: uuid('action_id'),
    environment: text('environment'),
    sources: jsonb('sources').$type<string[]>(),
    condition: jsonb('condition').$type<RuleCondition>().notNull().default({}),
    sampleRate: doublePrecision('sample_rate').notNull(),
    backfillSince: timestamp('backfill_since', { withTimezone: true, mode: 'date' }),
    scannedUntil: timestamp('scanned_until', { withTimezone: true, mode: 'date' }).notNull(),
    scannedId: uuid('scanned_id'),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    deletedAt: deletedAt(),
  },
  (table) => [index('review_rules_queue_index').on(table.queueId)],
);

/**
 * How many reviews of an item gave one answer to one question (`answer`: the answer as JSON; `value`:
 * a scale's number), kept up to date with each review for every question but `text`. Each row also
 * repeats its item's number of answers to the question and their sum (`unit_answers`, `unit_total`),
 * so every agreement figure is a sum over these rows: nothing reads the reviews themselves
 * (docs/review.md#agreement).
 */
export const reviewAnswerCounts = pgTable(
  'review_answer_counts',
  {
    queueId: uuid('queue_id')
      .notNull()
      .references(() => reviewQueues.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id')
      .notNull()
      .references(() => reviewItems.id, { onDelete: 'cascade' }),
    questionKey: text('question_key').notNull(),
    answer: text('answer').notNull(),
    value: doublePrecision('value'),
    count: integer('count').notNull(),
    unitAnswers: integer('unit_answers').notNull(),
    unitTotal: doublePrecision('unit_total').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.itemId, table.questionKey, table.answer] }),
    index('review_answer_counts_queue_index').on(table.queueId, table.questionKey),
  ],
);

/**
 * A queue's answer counts summed, by question, answer and the number of answers its items have to
 * the question (`answers`): the agreement report reads these few rows, not one row per item. Each
 * review adds the change it makes to its item's counts (answer-counts.ts); a trigger subtracts the
 * counts of a deleted item (a generation deleted). `shard` spreads one queue's concurrent reviews
 * over several rows, so they rarely wait for each other's lock; the report adds the shards up.
 */
export const reviewAgreementSums = pgTable(
  'review_agreement_sums',
  {
    queueId: uuid('queue_id')
      .notNull()
      .references(() => reviewQueues.id, { onDelete: 'cascade' }),
    questionKey: text('question_key').notNull(),
    answer: text('answer').notNull(),
    answers: integer('answers').notNull(),
    shard: integer('shard').notNull(),
    /** Σ n_c, Σ n_c(n_c − 1), Σ n_c·v, Σ n_c·v², Σ n_c·v·(the item's total) over the counts' rows. */
    count: integer('count').notNull(),
    agreeingPairs: integer('agreeing_pairs').notNull(),
    total: doublePrecision('total').notNull(),
    squares: doublePrecision('squares').notNull(),
    valueByTotals: doublePrecision('value_by_totals').notNull(),
  },
  (table) => [
    primaryKey({
      columns: [table.queueId, table.questionKey, table.answer, table.answers, table.shard],
    }),
  ],
);
