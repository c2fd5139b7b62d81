import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { NotFoundError } from '../../../errors.js';
import { asBulkWork } from '../../../platform/database/bulk-work.js';
import { defineJob, type JobHandler, type JobQueue } from '../../../platform/jobs/job-queue.js';
import type { RuleCondition } from './questions.js';
import type { ReviewRepository } from './repository.js';
import type { RuleRepository, RuleRow } from './rule-repository.js';
import type { NewRule } from './schemas.js';
import type { ReviewQueueService } from './service.js';

/**
 * One sweep of a rule: read what arrived since its mark (generations, or the feedback or scores its
 * `when` waits for), add the sampled matches to the queue, move the mark, queue the next sweep. Each
 * rule has one chain of sweeps, keyed by its number (a duplicate delivery adds nothing); a deleted
 * rule's chain ends. Never on a run's request path; its statements are bulk work, so a backfill of a
 * year of traffic waits behind other tenants' requests on the embedded database.
 */
export const reviewRuleSweepJob = defineJob({
  name: 'review-rule-sweep',
  lane: 'evaluation',
  payload: z.object({ workspaceId: z.uuid(), ruleId: z.uuid(), sweep: z.number().int().min(0) }),
  attempts: 3,
  backoffMs: 2_000,
  timeoutMs: 10 * 60 * 1000,
});

export type RuleSweepPayload = z.infer<typeof reviewRuleSweepJob.payload>;

const sweepKey = (ruleId: string, sweep: number) => `review-rule:${ruleId}:${sweep}`;

/** How the sweeps pace themselves: a new generation is in its queue within idle + settle + a sweep. */
export type RulePace = { idleMs: number; settleMs: number; batch: number };

export const defaultRulePace: RulePace = { idleMs: 1_000, settleMs: 2_000, batch: 500 };

/**
 * Whether a rule picks a generation: decided by a hash of the rule and the generation, so every
 * sweep, node and retry decides the same, and two rules of one rate sample independently.
 */
export function sampledBy(ruleId: string, generationId: string, rate: number): boolean {
  if (rate >= 1) return true;
  const hash = createHash('sha256').update(`${ruleId}:${generationId}`).digest();
  return hash.readUInt32BE(0) / 0x1_0000_0000 < rate;
}

export interface ReviewRuleService {
  create(workspaceId: string, queueId: string, creatorId: string, fields: NewRule): Promise<RuleRow>;
  list(workspaceId: string, queueId: string): Promise<RuleRow[]>;
  remove(workspaceId: string, queueId: string, ruleId: string): Promise<void>;
}

export function createReviewRuleService(dependencies: {
  rules: RuleRepository;
  queues: ReviewQueueService;
  jobs: Pick<JobQueue, 'enqueue'>;
  requireAction: (workspaceId: string, id: string) => Promise<unknown>;
  requireEvaluator: (workspaceId: string, id: string) => Promise<unknown>;
  /** Runs work once the current transaction has committed: a worker must find the rule its job names. */
  afterCommit: (work: () => Promise<unknown>) => Promise<void>;
}): ReviewRuleService {
  const { rules, queues, jobs, requireAction, requireEvaluator, afterCommit } = dependencies;
  return {
    async create(workspaceId, queueId, creatorId, fields) {
      const queue = await queues.require(workspaceId, queueId);
      if (fields.action) await requireAction(workspaceId, fields.action);
      if (fields.when?.score_below) await requireEvaluator(workspaceId, fields.when.score_below.evaluator);
      const condition: RuleCondition = {
        ...(fields.when?.error && { error: true }),
        ...(fields.when?.feedback && { feedback: fields.when.feedback }),
        ...(fields.when?.score_below && { score_below: fields.when.score_below }),
      };
      const backfillSince = fields.backfill_since ? new Date(fields.backfill_since) : null;
      const rule = await rules.insert({
        id: randomUUID(),
        workspaceId,
        queueId: queue.id,
        actionId: fields.action ?? null,
        environment: fields.environment ?? null,
        sources: fields.sources ?? null,
        condition,
        sampleRate: fields.sample_rate,
        backfillSince,
        // What arrives from now on, or since the backfill's start: the sweeps read forward from here.
        scannedUntil: backfillSince ?? new Date(),
        createdById: creatorId,
      });
      await afterCommit(() =>
        jobs.enqueue(
          reviewRuleSweepJob,
          { workspaceId, ruleId: rule.id, sweep: 0 },
          { key: sweepKey(rule.id, 0) },
        ),
      );
      return rule;
    },

    async list(workspaceId, queueId) {
      const queue = await queues.require(workspaceId, queueId);
      return rules.list(queue.id);
    },

    async remove(workspaceId, queueId, ruleId) {
      const queue = await queues.require(workspaceId, queueId);
      if (!(await rules.remove(queue.id, ruleId))) throw new NotFoundError('Review rule not found');
    },
  };
}

export function createRuleSweeper(dependencies: {
  rules: RuleRepository;
  repository: ReviewRepository;
  jobs: Pick<JobQueue, 'enqueue'>;
  pace: RulePace;
  logger: Logger;
}): JobHandler<RuleSweepPayload> {
  const { rules, repository, jobs, pace, logger } = dependencies;

  async function sweep(payload: RuleSweepPayload): Promise<number | undefined> {
    const rule = await rules.findLive(payload.workspaceId, payload.ruleId);
    if (!rule) return undefined;
    const queue = await repository.findQueue(rule.workspaceId, rule.queueId);
    if (!queue) return undefined;
    const matches = await rules.nextMatches(rule, pace.settleMs, pace.batch);
    if (matches.length > 0) {
      const chosen = matches
        .filter((match) => sampledBy(rule.id, match.generationId, rule.sampleRate))
        .map((match) => match.generationId);
      const added = await repository.addItems(queue, [...new Set(chosen)]);
      await rules.moveMark(rule.id, matches.at(-1)!);
      logger.debug({ rule: rule.id, read: matches.length, added }, 'review rule sweep');
    }
    return matches.length;
  }

  const next = (payload: RuleSweepPayload, delayMs: number) =>
    jobs.enqueue(
      reviewRuleSweepJob,
      { ...payload, sweep: payload.sweep + 1 },
      { key: sweepKey(payload.ruleId, payload.sweep + 1), delayMs },
    );

  return {
    async process(payload) {
      const read = await asBulkWork(() => sweep(payload));
      if (read === undefined) return;
      // A full batch means more are waiting (a backfill): the next sweep starts at once.
      await next(payload, read === pace.batch ? 0 : pace.idleMs);
    },

    /** A sweep that kept failing is logged by the queue; the chain goes on, so the rule keeps watching. */
    async onFinalFailure(payload) {
      await next(payload, pace.idleMs);
    },
  };
}
