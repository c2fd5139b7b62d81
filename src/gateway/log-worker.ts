import { parentPort, workerData } from 'node:worker_threads';
import type { CompletedExchange } from './interaction.js';
import { createLogShipper } from './log-shipper.js';
import { createServiceClient } from './service-client.js';

/**
 * The gateway's log worker: reading ended exchanges (JSON and SSE parsing, token counting), checking
 * keys and shipping batches all happen on this thread, so none of it competes with the proxy's event
 * loop. It reports counts and log lines to the main thread, which owns the metrics and the log.
 */
export type LogWorkerData = { serviceUrl: string; queueLimit: number };

export type ToLogWorker =
  | { type: 'exchange'; exchange: CompletedExchange }
  | { type: 'close'; timeoutMs: number };

export type FromLogWorker =
  | { type: 'report'; received: number; depth: number; sent: number; dropped: Record<string, number> }
  | { type: 'warn'; data: Record<string, unknown>; message: string }
  | { type: 'closed' };

const { serviceUrl, queueLimit } = workerData as LogWorkerData;
const port = parentPort!;
const service = createServiceClient(serviceUrl);
let received = 0;
let depth = 0;
let sent = 0;
let dropped: Record<string, number> = {};
const post = (message: FromLogWorker) => port.postMessage(message);

const shipper = createLogShipper({
  service,
  queueLimit,
  events: {
    sent: (count) => (sent += count),
    dropped: (reason, count) => (dropped[reason] = (dropped[reason] ?? 0) + count),
    depth: (entries) => (depth = entries),
    warn: (data, message) => post({ type: 'warn', data, message }),
  },
});

/** Counts go to the main thread in deltas, a few times a second and whenever asked to close. */
function report() {
  post({ type: 'report', received, depth, sent, dropped });
  received = 0;
  sent = 0;
  dropped = {};
}
const reporting = setInterval(report, 100);

port.on('message', (message: ToLogWorker) => {
  if (message.type === 'exchange') {
    received += 1;
    // Buffers arrive as Uint8Arrays after the copy between threads.
    const { exchange } = message;
    shipper.record({
      ...exchange,
      requestBody: Buffer.from(exchange.requestBody),
      responseChunks: exchange.responseChunks.map((chunk) => Buffer.from(chunk)),
    });
    return;
  }
  void shipper
    .close(message.timeoutMs)
    .then(() => service.close())
    .finally(() => {
      clearInterval(reporting);
      report();
      post({ type: 'closed' });
    });
});
