import type { Worker } from 'node:worker_threads';

/** A request as its caller sends it, before it is numbered (Omit of a union would merge its members). */
export type Unnumbered<Request> = Request extends unknown ? Omit<Request, 'id'> : never;

export type WorkerCalls<Request extends { id: number }, Answer extends { id: number }> = {
  /** Sends a request and resolves with its answer. */
  call(request: Unnumbered<Request>, transfer?: ArrayBuffer[]): Promise<Answer>;
  /** Hands an answer the worker sent to the call waiting for it. */
  settle(answer: Answer): void;
  /** Fails every call waiting, and every later one. */
  stop(error: Error): void;
};

type Waiting<Answer> = { resolve(answer: Answer): void; reject(error: Error): void };

/**
 * Numbered requests to a worker thread, each answered once. Once it has answered every call, the
 * worker stops keeping the process alive (until the next call): an idle worker never holds a process
 * open, and a caller awaiting an answer is never ended under it.
 */
export function createWorkerCalls<Request extends { id: number }, Answer extends { id: number }>(
  worker: Worker,
): WorkerCalls<Request, Answer> {
  const waiting = new Map<number, Waiting<Answer>>();
  let lastId = 0;
  let stopped: Error | undefined;
  return {
    call(request, transfer = []) {
      if (stopped) return Promise.reject(stopped);
      const id = ++lastId;
      if (waiting.size === 0) worker.ref();
      const answered = new Promise<Answer>((resolve, reject) => waiting.set(id, { resolve, reject }));
      worker.postMessage({ ...request, id }, transfer);
      return answered;
    },
    settle(answer) {
      const caller = waiting.get(answer.id);
      if (!caller) return;
      waiting.delete(answer.id);
      if (waiting.size === 0) worker.unref();
      caller.resolve(answer);
    },
    stop(error) {
      stopped ??= error;
      for (const caller of waiting.values()) caller.reject(stopped);
      waiting.clear();
    },
  };
}
