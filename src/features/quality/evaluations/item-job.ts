import type { Logger } from 'pino';
import { z } from 'zod';
import { isFinal, publicMessage } from '../../../errors.js';
import { defineJob, type JobHandler, type JobQueue } from '../../../platform/jobs/job-queue.js';
import type { PromptInput, RunEngine } from '../../runtime/runs/index.js';
import type { EvaluatorTypeName, ScoringTools } from '../evaluators/index.js';
import { scoreCase } from '../evaluators/index.js';
import { reportOf } from './report.js';
import type {
  EvaluationRepository,
  EvaluationRow,
  FinishedItem,
  ResultWithItem,
  StoredGeneration,
} from './repository.js';
import type { PinnedEvaluator } from './tables.js';

/**
 * A chain of an evaluation's items. An evaluation with concurrency c runs as c chains: chain s holds
 * items s, s + c, s + 2c, … . A job runs its chain's items one after another for a slice of time,
 * then queues a job for the rest, so at most c items of one run are in flight, several workers share
 * a run, and no job holds a slot for long. Every step can be repeated: the generation GUID is fixed
 * per item (a stored generation is read, never made again), an item's outcome is written once, a
 * finished item is passed over, and the next job is queued under a key, so a duplicate adds nothing.
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

/** How long one job runs its chain before handing the rest to a new job (and its slot to others). */
const sliceMs = 5_000;
/**
 * A chain's items are read, and their outcomes written, a batch at a time: at most this many, and
 * for at most this long, so progress shows.
 */
const batch = { items: 16, ms: 250 };
/**
 * Before an item starts, the run's status is read again when this long has passed since it was last
 * read: no item starts later than this after a cancel, and fast items share one read.
 */
const statusCheckMs = 20;

/** The key that makes queueing an item's job idempotent. */
export const itemJobKey = (evaluationId: string, position: number) =>
  `evaluation:${evaluationId}:${position}`;

/** The model a matrix run uses instead of the version's: `provider/model`. */
function modelOptionsOf(model: string | null) {
  if (!model) return undefined;
  const slash = model.indexOf('/');
  return slash > 0 ? { provider: model.slice(0, slash), model: model.slice(slash + 1) } : { model };
}

/** What `evaluation.finished` tells (docs/webhooks.md#events). */
export type EvaluationFinished = {
  evaluation: string;
  action: string;
  version: number;
  environment: string | null;
  dataset: string;
  status: 'SUCCESS' | 'FAILED';
};

export type ItemRunnerDependencies = {
  repository: EvaluationRepository;
  engine: Pick<RunEngine, 'prepare' | 'execute'>;
  jobs: Pick<JobQueue, 'enqueue'>;
  tools: ScoringTools;
  /** Whether the workspace still has the Action: without it the evaluation cannot proceed at all. */
  hasAction: (workspaceId: string, actionId: string) => Promise<boolean>;
  /** Runs the end of an evaluation and its telling (below) as one transaction. */
  inTransaction: <T>(work: () => Promise<T>) => Promise<T>;
  /**
   * Told, in the transaction that ends it, that an evaluation ended by itself: the webhooks'
   * `evaluation.finished` (docs/webhooks.md#events).
   */
  events?: (workspaceId: string, type: 'evaluation.finished', data: EvaluationFinished) => Promise<void>;
  logger: Logger;
};

export function createItemRunner(dependencies: ItemRunnerDependencies): JobHandler<EvaluationItemPayload> {
  const { repository, engine, jobs, tools, hasAction, inTransaction, logger } = dependencies;
  const events = dependencies.events ?? (async () => undefined);
  const ended = (evaluation: EvaluationRow, status: EvaluationFinished['status']) =>
    events(evaluation.workspaceId, 'evaluation.finished', {
      evaluation: evaluation.id,
      action: evaluation.actionId,
      version: evaluation.version,
      environment: evaluation.environment,
      dataset: evaluation.datasetId,
      status,
    });

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

  /** Runs the item, or reads the generation an earlier attempt stored, and scores it. */
  async function evaluate(
    evaluation: EvaluationRow,
    item: ResultWithItem,
    stored: StoredGeneration | undefined,
    signal: AbortSignal,
  ): Promise<FinishedItem> {
    try {
      let generation = stored;
      if (!generation) {
        const caller = { workspaceId: evaluation.workspaceId, allowModelOverrides: true };
        const modelOptions = modelOptionsOf(evaluation.model);
        const request = {
          input: item.input as PromptInput,
          version: evaluation.version,
          ...(modelOptions && { modelOptions }),
        };
        const options = { generationId: item.generationId, source: 'evaluation' as const };
        const outcome = await engine.execute(
          await engine.prepare(caller, evaluation.actionId, request, options),
          { signal },
        );
        generation = {
          output: outcome.msg,
          latencyMs: outcome.latencyMs,
          costUsd: outcome.cost?.generation ?? null,
        };
      }
      return await scoresOf(evaluation, item, generation);
    } catch (error) {
      // An error a retry cannot mend ends the item; any other fails the attempt, and the job retries.
      if (!isFinal(error)) throw error;
      return failedItem(evaluation, error.message);
    }
  }

  /** The chain has no item left: the run ends if every other chain has ended too. */
  async function chainEnded(evaluation: EvaluationRow): Promise<void> {
    if (await repository.hasPending(evaluation.id)) return;
    // The report (its intervals are CPU work over every item) is made before the transaction: on the
    // embedded database an open transaction holds every other workspace's statements.
    const summary = await report(evaluation);
    const finished = await inTransaction(async () => {
      const done = await repository.finishIfComplete(evaluation.id, async () => summary);
      if (done) await ended(evaluation, 'SUCCESS');
      return done;
    });
    if (finished) logger.info({ evaluation: evaluation.id }, 'evaluation finished');
  }

  /** Hands the rest of the chain, from `position`, to a new job. */
  async function handOn(payload: EvaluationItemPayload, position: number): Promise<void> {
    await jobs.enqueue(
      evaluationItemJob,
      { ...payload, position },
      { key: itemJobKey(payload.evaluationId, position) },
    );
  }

  type Finished = { position: number; outcome: FinishedItem };

  /**
   * Runs one batch of the chain from `from`; answers where the chain goes on, or `ended` when the
   * evaluation has ended (finished, cancelled, failed or deleted) for this chain.
   */
  async function runBatch(
    payload: EvaluationItemPayload,
    from: number,
    signal: AbortSignal,
  ): Promise<{ next: number; evaluation: EvaluationRow } | 'ended'> {
    const loaded = await repository.itemsToRun(payload.evaluationId, from, payload.stride, batch.items);
    if (!loaded) return 'ended';
    const { evaluation, items } = loaded;
    if (evaluation.status !== 'PENDING' && evaluation.status !== 'RUNNING') return 'ended';
    if (evaluation.status === 'PENDING') await repository.markRunning(evaluation.id);
    const finished: Finished[] = [];
    const started = Date.now();
    let statusRead = started;
    let next = from;
    try {
      for (const { item, stored } of items) {
        if (item.status === 'pending') {
          if (Date.now() - statusRead >= statusCheckMs) {
            if (!(await repository.isRunning(evaluation.id))) return 'ended';
            statusRead = Date.now();
          }
          const outcome = await evaluate(evaluation, item, stored, signal);
          if (
            outcome.status === 'failed' &&
            !(await hasAction(evaluation.workspaceId, evaluation.actionId))
          ) {
            const summary = await report(evaluation);
            await inTransaction(async () => {
              const error = 'The Action was deleted';
              if (await repository.end(evaluation.id, 'FAILED', { error, report: summary }))
                await ended(evaluation, 'FAILED');
            });
            return 'ended';
          }
          finished.push({ position: item.position, outcome });
        }
        next = item.position + payload.stride;
        if (Date.now() - started >= batch.ms) break;
      }
    } finally {
      // What finished is written even when a later item's attempt fails: a retry passes over it.
      await repository.finishItems(evaluation.id, finished);
    }
    return { next, evaluation };
  }

  return {
    async process(payload, context) {
      const started = Date.now();
      for (let position = payload.position; ; ) {
        const ran = await runBatch(payload, position, context.signal);
        if (ran === 'ended') return;
        position = ran.next;
        if (position >= ran.evaluation.total) return chainEnded(ran.evaluation);
        if (Date.now() - started >= sliceMs || context.signal.aborted) return handOn(payload, position);
      }
    },

    /**
     * Retries ran out (a provider that kept failing): the chain's first pending item fails with the
     * reason, and the chain goes on after it.
     */
    async onFinalFailure(payload, error) {
      const position = await repository.firstPending(payload.evaluationId, payload.position, payload.stride);
      if (position === undefined) return;
      const loaded = await repository.itemsToRun(payload.evaluationId, position, payload.stride, 1);
      if (!loaded || (loaded.evaluation.status !== 'PENDING' && loaded.evaluation.status !== 'RUNNING'))
        return;
      await repository.finishItems(payload.evaluationId, [
        { position, outcome: failedItem(loaded.evaluation, publicMessage(error)) },
      ]);
      const next = position + payload.stride;
      if (next >= loaded.evaluation.total) return chainEnded(loaded.evaluation);
      await handOn(payload, next);
    },
  };
}
