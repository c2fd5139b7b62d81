import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../../platform/module-worker.js';
import type { Unnumbered } from '../../../platform/worker-calls.js';
import type { CheckAnswer, CheckRequest, CheckWorkerReady } from './check-protocol.js';

/** How long one pattern or schema may take on one output before its score is given up. */
export const scoringTimeLimitMs = 100;
/** How long compiling one pattern or schema may take (once per worker thread, then it is cached). */
export const compilingTimeLimitMs = 1_000;
/** Check threads: a backtracking pattern ends the one it runs on, never the others. */
const defaultThreads = 2;
/** Times a check whose thread died of something else than its own time is sent again. */
const attemptsPerCheck = 3;

export class ScoringTimedOut extends Error {
  constructor(limitMs = scoringTimeLimitMs, what = 'took') {
    super(`${what} longer than ${limitMs} ms`);
  }
}

/** The thread a check ran on failed or ended, not by the check's own time. */
class WorkerEnded extends Error {
  constructor() {
    super('the check worker was ended');
  }
}

/** Runs the regular expressions and JSON Schemas of evaluators on worker threads. */
export type CheckRunner = {
  /**
   * Whether the output passes (a `compile` request: whether the schema compiles); throws
   * ScoringTimedOut past the time limit. `workspaceId` is whose turn it takes.
   */
  check(workspaceId: string, request: Unnumbered<CheckRequest>): Promise<boolean>;
  close(): Promise<void>;
};

type Check = {
  workspaceId: string;
  request: Unnumbered<CheckRequest>;
  attempts: number;
  resolve(passed: boolean): void;
  reject(error: Error): void;
};

/** A check thread: ready once its module loaded, running at most one check at a time. */
type Thread = {
  worker: Worker;
  ready: boolean;
  running?: { id: number; check: Check; timer: NodeJS.Timeout };
};

/**
 * The checks of every workspace wait in a queue of their own, and the threads take them in turn,
 * one workspace after another, one check per thread at a time: a workspace that sends thousands of
 * slow checks delays another's by at most one check per thread. A check's time counts from when its
 * thread takes it: compiling its pattern or schema may take `compilingTimeLimitMs`, the check itself
 * `scoringTimeLimitMs` from when the thread says it has started. Past either, the thread is ended (V8
 * cannot stop a backtracking pattern any other way) and the check answers ScoringTimedOut; no other
 * check is on that thread, so no other score is lost. A thread that dies otherwise has its check sent
 * again.
 */
export function createCheckRunner(options: { threads?: number } = {}): CheckRunner {
  const threads: (Thread | undefined)[] = Array.from({ length: options.threads ?? defaultThreads });
  /** Waiting checks by workspace; the Map's order is the turn order. */
  const waiting = new Map<string, Check[]>();
  let lastId = 0;
  let closed = false;

  function nextCheck(): Check | undefined {
    const [workspaceId, queue] = waiting.entries().next().value ?? [];
    if (!workspaceId || !queue) return undefined;
    const check = queue.shift()!;
    // Its turn is taken: the workspace goes to the back of the line.
    waiting.delete(workspaceId);
    if (queue.length > 0) waiting.set(workspaceId, queue);
    return check;
  }

  function enqueue(check: Check, first = false) {
    const queue = waiting.get(check.workspaceId) ?? [];
    if (first) queue.unshift(check);
    else queue.push(check);
    waiting.set(check.workspaceId, queue);
  }

  function endThread(index: number, thread: Thread) {
    if (threads[index] === thread) threads[index] = undefined;
    clearTimeout(thread.running?.timer);
    thread.running = undefined;
    thread.worker.removeAllListeners();
    void thread.worker.terminate();
  }

  /** The thread died, not by its check's time: the check is sent again, first in its queue. */
  function lost(index: number, thread: Thread) {
    const running = thread.running;
    endThread(index, thread);
    if (running) {
      running.check.attempts += 1;
      if (running.check.attempts >= attemptsPerCheck) running.check.reject(new WorkerEnded());
      else enqueue(running.check, true);
    }
    dispatch();
  }

  function timeOut(index: number, thread: Thread, limitMs: number, what: string) {
    const running = thread.running;
    endThread(index, thread);
    running?.check.reject(new ScoringTimedOut(limitMs, what));
    dispatch();
  }

  function start(index: number): Thread {
    const worker = startModuleWorker('features/quality/evaluators/check-worker');
    const thread: Thread = { worker, ready: false };
    threads[index] = thread;
    worker.on('message', (message: CheckAnswer | CheckWorkerReady) => {
      if ('ready' in message) {
        thread.ready = true;
        return dispatch();
      }
      const running = thread.running;
      if (!running || running.id !== message.id) return;
      clearTimeout(running.timer);
      if ('started' in message) {
        running.timer = setTimeout(
          () => timeOut(index, thread, scoringTimeLimitMs, 'took'),
          scoringTimeLimitMs,
        );
        return;
      }
      thread.running = undefined;
      if ('error' in message) running.check.reject(new Error(message.error));
      else running.check.resolve(message.passed);
      dispatch();
    });
    worker.on('error', () => lost(index, thread));
    worker.on('exit', () => lost(index, thread));
    return thread;
  }

  /** Gives each free thread the next check in turn; starts threads as checks wait. */
  function dispatch() {
    if (closed) return;
    for (const [index, existing] of threads.entries()) {
      if (waiting.size === 0) break;
      const thread = existing ?? start(index);
      if (!thread.ready || thread.running) continue;
      const check = nextCheck();
      if (!check) break;
      const id = ++lastId;
      const timer = setTimeout(
        () => timeOut(index, thread, compilingTimeLimitMs, 'compiling took'),
        compilingTimeLimitMs,
      );
      thread.running = { id, check, timer };
      thread.worker.ref();
      thread.worker.postMessage({ ...check.request, id });
    }
    // Idle threads do not keep the process alive; a thread with a check does.
    for (const thread of threads) if (thread && !thread.running) thread.worker.unref();
  }

  return {
    check(workspaceId, request) {
      if (closed) return Promise.reject(new WorkerEnded());
      return new Promise<boolean>((resolve, reject) => {
        enqueue({ workspaceId, request, attempts: 0, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const [index, thread] of threads.entries()) {
        if (!thread) continue;
        thread.running?.check.reject(new WorkerEnded());
        endThread(index, thread);
      }
      for (const queue of waiting.values()) for (const check of queue) check.reject(new WorkerEnded());
      waiting.clear();
    },
  };
}
