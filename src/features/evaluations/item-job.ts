import type { Logger } from 'pino';
import { z } from 'zod';
import { isFinal, publicMessage } from '../../errors.js';
import type { PinnedEvaluator } from '../../platform/database/schema.js';
import { defineJob, type JobHandler, type JobQueue } from '../../platform/jobs/job-queue.js';
import type { EvaluatorTypeName, ScoringTools } from '../evaluators/index.js';
import { scoreCase } from '../evaluators/index.js';
import type { DurableRuns, RunInput } from '../runs/index.js';
import { reportOf } from './report.js';
import type { EvaluationRepository, EvaluationRow, FinishedItem, ResultWithItem } from './repository.js';

/**
 * One item of an evaluation. An evaluation with concurrency c runs as c chains: the job for item p
 * queues the job for item p + c when it ends, so at most c items of one run are in flight, and
 * several workers share a run. Every step can be repeated: the generation GUID is fixed per item
 * (a stored generation is read, never made again), an item's outcome is written once, and the next
 * job is queued under a key, so a duplicate adds nothing.
 */
export const evaluationItemJob = defineJob({
  name: 'evaluate-item',
  lane: 'evaluation',
  payload: z.object({
    workspaceId: z.uuid(),
    evaluationId: z.uuid(),
    position: z.number().int().min(0),
    stride: z.number().int().min(1),
  }),
  attempts: 3,
  backoffMs: 2_000,
  timeoutMs: 10 * 60 * 1000,
});

export type EvaluationItemPayload = z.infer<typeof evaluationItemJob.payload>;

/** The key that makes queueing an item's job idempotent. */
export const itemJobKey = (evaluationId: string, position: number) =>
  `evaluation:${evaluationId}:${position}`;

/** The model a matrix run uses instead of the version's: `provider/model`. */
function modelOptionsOf(model: string | null) {
  if (!model) return undefined;
  const slash = model.indexOf('/');
  return slash > 0 ? { provider: model.slice(0, slash), model: model.slice(slash + 1) } : { model };
}

export type ItemRunnerDependencies = {
  repository: EvaluationRepository;
  durable: Pick<DurableRuns, 'generate'>;
  jobs: Pick<JobQueue, 'enqueue'>;
  tools: ScoringTools;
  /** Whether the workspace still has the Action: without it the evaluation cannot proceed at all. */
  hasAction: (workspaceId: string, actionId: string) => Promise<boolean>;
  logger: Logger;
};

export function createItemRunner(dependencies: ItemRunnerDependencies): JobHandler<EvaluationItemPayload> {
  const { repository, durable, jobs, tools, hasAction, logger } = dependencies;

  /** Scores an output with every pinned evaluator; a score that fails is null with its reason. */
  async function scoresOf(
    evaluation: EvaluationRow,
    item: ResultWithItem,
    generation: { output: string; latencyMs: number | null; costUsd: number | null },
  ): Promise<FinishedItem> {
    const scores: Record<string, number | null> = {};
    const scoreErrors: Record<string, string> = {};
    let costUsd = generation.costUsd;
    const scoring = {
      input: item.input,
      output: generation.output,
      expectedOutput: item.expectedOutput,
      latencyMs: generation.latencyMs,
      costUsd: generation.costUsd,
    };
    await Promise.all(
      evaluation.evaluators.map(async (evaluator: PinnedEvaluator) => {
        const score = await scoreCase(
          { type: evaluator.type as EvaluatorTypeName, config: evaluator.config },
          scoring,
          tools,
          evaluation.workspaceId,
        );
        scores[evaluator.id] = score.score;
        if (score.error !== null) scoreErrors[evaluator.id] = score.error;
        if (score.costUsd !== undefined) costUsd = (costUsd ?? 0) + score.costUsd;
      }),
    );
    return {
      status: 'done',
      output: generation.output,
      error: null,
      scores,
      scoreErrors,
      latencyMs: generation.latencyMs,
      costUsd,
    };
  }

  const failedItem = (evaluation: EvaluationRow, error: string): FinishedItem => ({
    status: 'failed',
    output: null,
    error,
    scores: Object.fromEntries(evaluation.evaluators.map((evaluator) => [evaluator.id, null])),
    scoreErrors: {},
    latencyMs: null,
    costUsd: null,
  });

  async function report(evaluation: EvaluationRow) {
    return reportOf(evaluation.evaluators, await repository.scored(evaluation.id));
  }

  /** Queues the chain's next item, or, at the chain's end, ends the run if every chain has ended. */
  async function next(payload: EvaluationItemPayload, evaluation: EvaluationRow): Promise<void> {
    const position = payload.position + payload.stride;
    if (position < evaluation.total) {
      await jobs.enqueue(
        evaluationItemJob,
        { ...payload, position },
        { key: itemJobKey(payload.evaluationId, position) },
      );
      return;
    }
    if (await repository.finishIfComplete(evaluation.id, () => report(evaluation)))
      logger.info({ evaluation: evaluation.id }, 'evaluation finished');
  }

  /** Runs the item (or reads its stored generation) and scores it; an error a retry cannot mend ends the item. */
  async function evaluate(evaluation: EvaluationRow, item: ResultWithItem, signal: AbortSignal) {
    try {
      const caller = { workspaceId: evaluation.workspaceId, allowModelOverrides: true };
      const modelOptions = modelOptionsOf(evaluation.model);
      const request = {
        input: item.input as RunInput,
        version: evaluation.version,
        ...(modelOptions && { modelOptions }),
      };
      const options = { generationId: item.generationId, source: 'evaluation' as const };
      const generation = await durable.generate(caller, evaluation.actionId, request, options, signal);
      return await scoresOf(evaluation, item, generation);
    } catch (error) {
      if (!isFinal(error)) throw error;
      return failedItem(evaluation, error.message);
    }
  }

  return {
    async process(payload, context) {
      const loaded = await repository.itemToRun(payload.evaluationId, payload.position);
      if (!loaded) return;
      const { evaluation, item } = loaded;
      if (evaluation.status !== 'PENDING' && evaluation.status !== 'RUNNING') return;
      if (evaluation.status === 'PENDING') await repository.markRunning(evaluation.id);
      if (item.status === 'pending') {
        const outcome = await evaluate(evaluation, item, context.signal);
        if (outcome.status === 'failed' && !(await hasAction(evaluation.workspaceId, evaluation.actionId))) {
          await repository.end(evaluation.id, 'FAILED', {
            error: 'The Action was deleted',
            report: await report(evaluation),
          });
          return;
        }
        await repository.finishItem(evaluation.id, item.position, outcome);
      }
      await next(payload, evaluation);
    },

    /** Retries ran out (a provider that kept failing): the item fails with the reason, and its chain goes on. */
    async onFinalFailure(payload, error) {
      const loaded = await repository.itemToRun(payload.evaluationId, payload.position);
      if (!loaded || (loaded.evaluation.status !== 'PENDING' && loaded.evaluation.status !== 'RUNNING'))
        return;
      await repository.finishItem(
        payload.evaluationId,
        payload.position,
        failedItem(loaded.evaluation, publicMessage(error)),
      );
      await next(payload, loaded.evaluation);
    },
  };
}
