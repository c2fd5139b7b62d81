import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../platform/module-worker.js';
import { createWorkerCalls, type Unnumbered, type WorkerCalls } from '../../platform/worker-calls.js';
import type { CheckAnswer, CheckRequest, CheckWorkerReady } from './check-protocol.js';

/** How long one pattern or schema may take on one output before its score is given up. */
export const scoringTimeLimitMs = 100;

export class ScoringTimedOut extends Error {
  constructor() {
    super(`took longer than ${scoringTimeLimitMs} ms`);
  }
}

/** Runs the regular expressions and JSON Schemas of evaluators on a worker thread. */
export type CheckRunner = {
  /** Whether the output passes; throws ScoringTimedOut past the time limit. */
  check(request: Unnumbered<CheckRequest>): Promise<boolean>;
  close(): Promise<void>;
};

/**
 * A started worker; `ready` settles once its module has loaded (a first start loads a compiler in
 * tests), or once it has ended (a call then fails as it is made).
 */
type Started = { worker: Worker; calls: WorkerCalls<CheckRequest, CheckAnswer>; ready: Promise<void> };

/**
 * The checks go to one worker thread, started on the first. A check that outlives the time limit
 * ends the thread (V8 cannot stop a backtracking pattern any other way) and answers ScoringTimedOut;
 * checks that were waiting behind it are sent again to a new thread.
 */
export function createCheckRunner(): CheckRunner {
  let current: Started | undefined;

  function start(): Started {
    const worker = startModuleWorker('features/evaluators/check-worker');
    const calls = createWorkerCalls<CheckRequest, CheckAnswer>(worker);
    let loaded!: () => void;
    const ready = new Promise<void>((resolve) => {
      loaded = resolve;
      worker.once('exit', () => resolve());
    });
    const started = { worker, calls, ready };
    const stopped = (error: Error) => {
      if (current === started) current = undefined;
      calls.stop(error);
    };
    worker.on('message', (message: CheckAnswer | CheckWorkerReady) => {
      if ('ready' in message) loaded();
      else calls.settle(message);
    });
    worker.on('error', stopped);
    worker.on('exit', () => stopped(new WorkerEnded()));
    return started;
  }

  async function attempt(request: Unnumbered<CheckRequest>): Promise<boolean> {
    current ??= start();
    const started = current;
    await started.ready;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ScoringTimedOut()), scoringTimeLimitMs);
    });
    try {
      const answer = await Promise.race([started.calls.call(request), timedOut]);
      if ('error' in answer) throw new Error(answer.error);
      return answer.passed;
    } catch (error) {
      if (error instanceof ScoringTimedOut && current === started) {
        current = undefined;
        await started.worker.terminate();
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async check(request) {
      try {
        return await attempt(request);
      } catch (error) {
        // Waiting behind a check that ran out of time: its thread was ended, so ask the new one.
        if (error instanceof WorkerEnded) return attempt(request);
        throw error;
      }
    },
    async close() {
      const started = current;
      current = undefined;
      await started?.worker.terminate();
    },
  };
}

/** The thread a check was waiting on was ended (another check ran out of time). */
class WorkerEnded extends Error {
  constructor() {
    super('the check worker was ended');
  }
}
