import { parentPort, workerData } from 'node:worker_threads';
import { type CompletedExchange, exchangeBytes } from './interaction.js';
import { createLogShipper, type SpooledInteraction } from './log-shipper.js';
import { createServiceClient } from './service-client.js';
import { openSpool } from './spool.js';

/**
 * The gateway's log worker: reading ended exchanges (JSON and SSE parsing, token counting), checking
 * keys and shipping batches all happen on this thread, so none of it competes with the proxy's event
 * loop. It reports counts and log lines to the main thread, which owns the metrics and the log.
 */
export type LogWorkerData = {
  serviceUrl: string;
  /** Exchanges on their way to the worker, and records it holds in memory, at most (each). */
  queueLimit: number;
  /** Bytes of the same, at most. */
  queueBytes: number;
  /** Characters kept of each logged text. */
  textLimit: number;
  /** The spool's directory and its size: what waits beyond memory, across restarts. */
  spoolDirectory: string;
  spoolBytes: number;
};

export type ToLogWorker =
  | { type: 'exchange'; exchange: CompletedExchange }
  | { type: 'close'; timeoutMs: number };

export type FromLogWorker =
  | {
      type: 'report';
      received: number;
      /** Bytes of the exchanges received since the last report (the pipeline's in-flight bytes). */
      receivedBytes: number;
      depth: number;
      /** Bytes of the records waiting to be sent. */
      bytes: number;
      sent: number;
      dropped: Record<string, number>;
    }
  | { type: 'warn'; data: Record<string, unknown>; message: string }
  | { type: 'closed' };

const { serviceUrl, queueLimit, queueBytes, textLimit, spoolDirectory, spoolBytes } =
  workerData.data as LogWorkerData;
const port = parentPort!;
const service = createServiceClient(serviceUrl);
let received = 0;
let receivedBytes = 0;
let depth = 0;
let bytes = 0;
let sent = 0;
let dropped: Record<string, number> = {};
const post = (message: FromLogWorker) => port.postMessage(message);

const shipper = createLogShipper({
  service,
  spool: openSpool<SpooledInteraction>({
    directory: spoolDirectory,
    maximumBytes: spoolBytes,
    warn: (message) => post({ type: 'warn', data: {}, message }),
  }),
  queueLimit,
  queueBytes,
  textLimit,
  events: {
    sent: (count) => (sent += count),
    dropped: (reason, count) => (dropped[reason] = (dropped[reason] ?? 0) + count),
    depth: (entries, queued) => {
      depth = entries;
      bytes = queued;
    },
    warn: (data, message) => post({ type: 'warn', data, message }),
  },
});

/** Counts go to the main thread in deltas, a few times a second and whenever asked to close. */
function report() {
  post({ type: 'report', received, receivedBytes, depth, bytes, sent, dropped });
  received = 0;
  receivedBytes = 0;
  sent = 0;
  dropped = {};
}
const reporting = setInterval(report, 100);
const eagerReportBytes = 1024 * 1024;

port.on('message', (message: ToLogWorker) => {
  if (message.type === 'exchange') {
    received += 1;
    // Buffers arrive as Uint8Arrays after the copy between threads.
    const { exchange } = message;
    receivedBytes += exchangeBytes(exchange);
    shipper.record({
      ...exchange,
      requestBody: Buffer.from(exchange.requestBody),
      responseChunks: exchange.responseChunks.map((chunk) => Buffer.from(chunk)),
    });
    // Large exchanges are counted against the pipeline's byte bound until reported: say so at once.
    if (receivedBytes >= eagerReportBytes) report();
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
