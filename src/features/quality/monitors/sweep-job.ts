import type { Logger } from 'pino';
import { z } from 'zod';
import { defineJob, type JobHandler, type JobQueue } from '../../../platform/jobs/job-queue.js';
import type { NewScore, ScoreRepository } from '../../runtime/generations/index.js';
import {
  type EvaluatorTypeName,
  needsExpectedOutput,
  type ScoringTools,
  scoreCase,
} from '../evaluators/index.js';
import type { MonitoredGeneration, MonitorRepository, MonitorRow } from './repository.js';

/**
 * One sweep of a monitor: read the generations made since its mark, score the sampled ones, move
 * the mark, and queue the next sweep. Each monitor has one chain of sweeps (keyed by its number, so
 * a duplicate delivery adds nothing); a deleted monitor's chain ends. Scoring happens here, in a
 * worker's job, never on a run's request path.
 */
export const monitorSweepJob = defineJob({
  name: 'monitor-sweep',
  lane: 'evaluation',
  payload: z.object({ workspaceId: z.uuid(), monitorId: z.uuid(), sweep: z.number().int().min(0) }),
  attempts: 3,
  backoffMs: 2_000,
  timeoutMs: 10 * 60 * 1000,
});

export type MonitorSweepPayload = z.infer<typeof monitorSweepJob.payload>;

export const sweepJobKey = (monitorId: string, sweep: number) => `monitor:${monitorId}:${sweep}`;

/** How the sweeps pace themselves (docs/evaluations.md#monitors). */
export type SweepPace = {
  /** Between sweeps that found fewer generations than a batch: the delay until a new one is scored. */
  idleMs: number;
  /** A generation younger than this waits for the next sweep: its transaction may not have committed. */
  settleMs: number;
  /** Generations read per sweep. */
  batch: number;
};

export const defaultSweepPace: SweepPace = { idleMs: 1_000, settleMs: 2_000, batch: 200 };

/**
 * Whether a generation is in the sample: decided by its GUID (random bits), so every sweep, node
 * and retry decides the same, and the share scored is the rate.
 */
export function sampled(generationId: string, rate: number): boolean {
  return Number.parseInt(generationId.slice(0, 8), 16) / 0x1_0000_0000 < rate;
}

/** Scores run a few at a time: a judge is a model call. */
const scoringConcurrency = 4;

export function createSweepRunner(dependencies: {
  repository: MonitorRepository;
  /** Where the generations' scores are stored (the generations feature). */
  scores: Pick<ScoreRepository, 'store'>;
  jobs: Pick<JobQueue, 'enqueue'>;
  tools: ScoringTools;
  /** The evaluator as it is now, or undefined once deleted (its scores stop). */
  evaluator: (
    workspaceId: string,
    id: string,
  ) => Promise<{ id: string; type: EvaluatorTypeName; config: Record<string, unknown> } | undefined>;
  pace: SweepPace;
  logger: Logger;
}): JobHandler<MonitorSweepPayload> {
  const { repository, scores: scoreStore, jobs, tools, evaluator, pace, logger } = dependencies;

  async function scoresOf(monitor: MonitorRow, generations: MonitoredGeneration[]): Promise<NewScore[]> {
    const evaluators = (
      await Promise.all(monitor.evaluatorIds.map((id) => evaluator(monitor.workspaceId, id)))
    ).filter((each) => each !== undefined);
    const chosen = generations.filter((generation) => sampled(generation.id, monitor.sampleRate));
    const scores: NewScore[] = [];
    const scoreOne = async (generation: MonitoredGeneration) => {
      for (const each of evaluators) {
        const score = needsExpectedOutput(each.type)
          ? { score: null, error: 'a monitored generation has no expected_output to compare with' }
          : await scoreCase(
              each,
              {
                input: generation.input,
                output: generation.output,
                expectedOutput: null,
                latencyMs: generation.latencyMs,
                costUsd: generation.cost?.generation ?? null,
              },
              tools,
              monitor.workspaceId,
            );
        scores.push({
          generationId: generation.id,
          evaluatorId: each.id,
          workspaceId: monitor.workspaceId,
          actionId: monitor.actionId,
          monitorId: monitor.id,
          score: score.score,
          error: score.error,
          day: generation.createdAt.toISOString().slice(0, 10),
        });
      }
    };
    for (let start = 0; start < chosen.length; start += scoringConcurrency)
      await Promise.all(chosen.slice(start, start + scoringConcurrency).map(scoreOne));
    return scores;
  }

  return {
    async process(payload) {
      const monitor = await repository.find(payload.workspaceId, payload.monitorId);
      if (!monitor) return;
      const generations = await repository.nextGenerations(monitor, pace.settleMs, pace.batch);
      if (generations.length > 0) {
        const scores = await scoresOf(monitor, generations);
        await scoreStore.store(scores);
        await repository.moveMark(monitor.id, generations.at(-1)!.id);
        logger.debug(
          { monitor: monitor.id, read: generations.length, scored: scores.length },
          'monitor sweep',
        );
      }
      // A full batch means more are waiting: the next sweep starts at once.
      const sweep = payload.sweep + 1;
      await jobs.enqueue(
        monitorSweepJob,
        { ...payload, sweep },
        { key: sweepJobKey(monitor.id, sweep), delayMs: generations.length === pace.batch ? 0 : pace.idleMs },
      );
    },

    /** A sweep that kept failing is logged; the chain goes on, so the monitor keeps scoring. */
    async onFinalFailure(payload) {
      const sweep = payload.sweep + 1;
      await jobs.enqueue(
        monitorSweepJob,
        { ...payload, sweep },
        { key: sweepJobKey(payload.monitorId, sweep), delayMs: pace.idleMs },
      );
    },
  };
}
