import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../platform/module-worker.js';
import type { Unnumbered } from '../../platform/worker-calls.js';
import type { CheckAnswer, CheckRequest, CheckWorkerReady } from './check-protocol.js';

/** How long one pattern or schema may take on one output before its score is given up. */
export const scoringTimeLimitMs = 100;

export class ScoringTimedOut extends Error {
  constructor() {
    super(`took longer than ${scoringTimeLimitMs} ms`);
  }
}

/** The thread a check was waiting on was ended (another check ran out of time). */
class WorkerEnded extends Error {
  constructor() {
    super('the check worker was ended');
  }
}

/** Runs the regular expressions and JSON Schemas of evaluators on a worker thread. */
export type CheckRunner = {
  /** Whether the output passes; throws ScoringTimedOut past the time limit. */
  check(request: Unnumbered<CheckRequest>): Promise<boolean>;
  close(): Promise<void>;
};

type Waiting = { resolve(passed: boolean): void; reject(error: Error): void; timer?: NodeJS.Timeout };

/** A started worker and the checks waiting on it. */
type Started = { worker: Worker; waiting: Map<number, Waiting> };

/**
 * The checks go to one worker thread, started on the first. A check's time limit counts from when the
 * worker starts it (it says so), so time spent queued behind other checks, or a busy machine's delay
 * in passing messages, never counts. A check that outlives the limit ends the thread (V8 cannot stop
 * a backtracking pattern any other way) and answers ScoringTimedOut; the checks waiting behind it are
 * sent again to a new thread.
 */
export function createCheckRunner(): CheckRunner {
  let current: Started | undefined;
  let lastId = 0;

  function endThread(started: Started, error: Error) {
    if (current === started) current = undefined;
    for (const waiting of started.waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
    started.waiting.clear();
    void started.worker.terminate();
  }

  function timeOut(started: Started, id: number) {
    const waiting = started.waiting.get(id);
    if (!waiting) return;
    started.waiting.delete(id);
    waiting.reject(new ScoringTimedOut());
    endThread(started, new WorkerEnded());
  }

  function start(): Started {
    const worker = startModuleWorker('features/evaluators/check-worker');
    const started: Started = { worker, waiting: new Map() };
    // Idle, the thread does not keep the process alive; a check waiting on it does.
    worker.unref();
    worker.on('message', (message: CheckAnswer | CheckWorkerReady) => {
      if ('ready' in message) return;
      const waiting = started.waiting.get(message.id);
      if (!waiting) return;
      if ('started' in message) {
        waiting.timer = setTimeout(() => timeOut(started, message.id), scoringTimeLimitMs);
        return;
      }
      clearTimeout(waiting.timer);
      started.waiting.delete(message.id);
      if (started.waiting.size === 0) worker.unref();
      if ('error' in message) waiting.reject(new Error(message.error));
      else waiting.resolve(message.passed);
    });
    worker.on('error', (error) => endThread(started, error));
    worker.on('exit', () => endThread(started, new WorkerEnded()));
    return started;
  }

  function attempt(request: Unnumbered<CheckRequest>): Promise<boolean> {
    current ??= start();
    const started = current;
    const id = ++lastId;
    if (started.waiting.size === 0) started.worker.ref();
    return new Promise<boolean>((resolve, reject) => {
      started.waiting.set(id, { resolve, reject });
      started.worker.postMessage({ ...request, id });
    });
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
      if (started) endThread(started, new WorkerEnded());
    },
  };
}
