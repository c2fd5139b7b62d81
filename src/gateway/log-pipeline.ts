import type { Logger } from 'pino';
import { startModuleWorker } from '../platform/module-worker.js';
import { type CompletedExchange, exchangeBytes } from './interaction.js';
import type { FromLogWorker, LogWorkerData, ToLogWorker } from './log-worker.js';
import type { GatewayMetrics } from './metrics.js';

/**
 * The proxy's side of logging: an ended exchange is handed to the log worker (one message, copied)
 * and that is all the request pays. The worker spools it to disk and ships it; its counts feed the
 * metrics, its warnings the log. A worker thread that falls behind in reading exchanges cannot make
 * memory grow: beyond the queue limits, exchanges not yet taken by it are dropped here.
 */
export function createLogPipeline(options: LogWorkerData & { metrics: GatewayMetrics; logger: Logger }) {
  const { metrics, logger, ...settings } = options;
  const worker = startModuleWorker('gateway/log-worker', settings satisfies LogWorkerData);
  worker.unref();
  let inFlight = 0;
  let inFlightBytes = 0;
  let queuedBytes = 0;
  let depth = 0;
  let lastWarning = 0;
  let closed: (() => void) | undefined;

  function dropped(reason: string, data: Record<string, unknown> = {}) {
    metrics.logsDropped.inc({ reason });
    const now = Date.now();
    if (now - lastWarning < 1000) return;
    lastWarning = now;
    logger.warn({ reason, ...data }, 'interaction not logged');
  }

  worker.on('message', (message: FromLogWorker) => {
    if (message.type === 'report') {
      inFlight -= message.received;
      inFlightBytes -= message.receivedBytes;
      depth = message.depth;
      queuedBytes = message.bytes;
      metrics.queueDepth.set(depth + inFlight);
      if (message.sent > 0) metrics.logsSent.inc(message.sent);
      for (const [reason, count] of Object.entries(message.dropped))
        metrics.logsDropped.inc({ reason }, count);
    } else if (message.type === 'warn') {
      logger.warn(message.data, message.message);
    } else {
      closed?.();
    }
  });
  worker.on('error', (error) => logger.error({ err: error.message }, 'the log worker failed'));

  const send = (message: ToLogWorker) => worker.postMessage(message);

  return {
    record(exchange: CompletedExchange): void {
      const bytes = exchangeBytes(exchange);
      // The worker spools what it takes; only exchanges it has not taken yet are bounded here.
      if (inFlight >= options.queueLimit || inFlightBytes + bytes > options.queueBytes) {
        dropped('queue_full');
        return;
      }
      inFlight += 1;
      inFlightBytes += bytes;
      send({ type: 'exchange', exchange });
    },

    /** An exchange without the x-svc headers: proxied, never logged (docs/api.md#how-the-parts-behave), counted. */
    unattributed(): void {
      dropped('no_credentials', { why: 'x-svc-api-key and x-svc-action-guid are required for logging' });
    },

    /** Exchanges waiting to be logged, as last reported (those on their way to the worker included). */
    depth: () => depth + inFlight,

    /** Bytes waiting to be logged, the same way: what the byte bound compares. */
    bytes: () => queuedBytes + inFlightBytes,

    /** Lets the worker send what it holds (at most `timeoutMs`), then stops it. */
    async close(timeoutMs = 5_000): Promise<void> {
      await new Promise<void>((resolve) => {
        closed = resolve;
        send({ type: 'close', timeoutMs });
        setTimeout(resolve, timeoutMs + 1_000).unref();
      });
      await worker.terminate();
    },
  };
}

export type LogPipeline = ReturnType<typeof createLogPipeline>;
