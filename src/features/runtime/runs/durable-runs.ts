import type { ErrorCode } from '../../../core/error-codes.js';
import { publicMessage } from '../../../errors.js';
import type { JobDefinition, JobQueue } from '../../../platform/jobs/job-queue.js';
import type { GenerationService } from '../generations/index.js';
import type { RunCaller, RunEngine, RunOptions } from './engine.js';
import type { RunInput } from './run-input.js';

/** A generation as a job that carried it reads it: its text, the model call's time and its cost. */
export type DurableGeneration = { output: string; latencyMs: number | null; costUsd: number | null };

/** Why a queued run ended without an answer, as its result says it. */
export type RunFailure = { status: number; code: ErrorCode; message: string };

/**
 * What every run carried by a job needs (an async run, a workflow block): a run is never left
 * waiting for a job that was never queued, and a generation is never made twice, whatever the queue
 * redelivers. (An evaluation's items read their stored generations in the query that loads them.)
 */
export type DurableRuns = {
  /**
   * Queues the job that carries a run. When the queue refuses it, `markFailed` records why the run
   * never started (`503 queue_unavailable`), and the queue's error is thrown: a run without a job
   * would otherwise wait for ever.
   */
  enqueue<Payload>(
    definition: JobDefinition<Payload>,
    payload: Payload,
    markFailed: (failure: RunFailure) => Promise<void>,
    options?: { key?: string },
  ): Promise<string>;
  /**
   * The generation `options.generationId`. An earlier attempt (a crashed node's, or a duplicate
   * delivery) may have stored it and died before saying so: then that stored one, and no model is
   * called; otherwise the Action runs now and stores it under that id.
   */
  generate(
    caller: RunCaller,
    actionId: string,
    request: RunInput,
    options: RunOptions & { generationId: string },
    signal: AbortSignal,
  ): Promise<DurableGeneration>;
};

export function createDurableRuns(dependencies: {
  jobs: JobQueue;
  generations: GenerationService;
  engine: RunEngine;
}): DurableRuns {
  const { jobs, generations, engine } = dependencies;
  return {
    async enqueue(definition, payload, markFailed, options) {
      try {
        return await jobs.enqueue(definition, payload, options);
      } catch (error) {
        await markFailed({ status: 503, code: 'queue_unavailable', message: publicMessage(error) });
        throw error;
      }
    },

    async generate(caller, actionId, request, options, signal) {
      // Checked on every attempt: a queue need not count a crashed attempt.
      const stored = await generations.find(caller.workspaceId, options.generationId);
      if (stored)
        return {
          output: stored.output,
          latencyMs: stored.latencyMs,
          costUsd: stored.cost?.generation ?? null,
        };
      const prepared = await engine.prepare(caller, actionId, request, options);
      const outcome = await engine.execute(prepared, { signal });
      return { output: outcome.msg, latencyMs: outcome.latencyMs, costUsd: outcome.cost?.generation ?? null };
    },
  };
}
