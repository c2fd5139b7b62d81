import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { EmbeddingWorker, EmbeddingWorkerRequest } from './worker-embedder.js';

/**
 * An embedding worker in a child process instead of a thread, for a model whose WebAssembly needs
 * V8's optimising compiler, which the service turns off for itself on the embedded database
 * (platform/webassembly-compiler.ts): a child process keeps V8's defaults. `source` is a CommonJS
 * script that reads `process.argv[1]` (the JSON of `data`), answers each message with
 * `process.send`, and exits when the channel closes, so it never outlives the service, even a
 * killed one.
 */
export function startEmbeddingProcess(source: string, data: unknown): EmbeddingWorker {
  const child = spawn(process.execPath, ['--eval', source, JSON.stringify(data)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Structured clone, as between threads: the vectors arrive as typed arrays.
    serialization: 'advanced',
  });
  const events = new EventEmitter();
  child.on('message', (answer) => events.emit('message', answer));
  child.on('error', (error) => events.emit('error', error));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      events.emit('exit');
      resolve();
    }),
  );
  return {
    postMessage: (request: EmbeddingWorkerRequest) => child.send(request),
    on(event: 'message' | 'error' | 'exit', listener: (value: never) => void) {
      events.on(event, listener as (value: unknown) => void);
    },
    // Both the process and its channel hold the service's event loop open while there is work.
    ref() {
      child.ref();
      child.channel?.ref();
    },
    unref() {
      child.unref();
      child.channel?.unref();
    },
    async terminate() {
      if (child.exitCode === null && child.signalCode === null) {
        // An unreferenced child's exit keeps nothing waiting: the service's loop would empty and the
        // process end here, in the middle of its shutdown, before the database and its lock are closed.
        child.ref();
        child.kill();
      }
      await exited;
    },
  };
}
