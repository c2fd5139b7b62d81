import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The gateway's Prometheus metrics (`GET /metrics`), on a registry of its own. */
export function createGatewayMetrics() {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: 'lectern_gateway_requests_total',
      help: 'Requests answered, by route and status.',
      labelNames: ['route', 'status'] as const,
      registers,
    }),
    upstreamSeconds: new Histogram({
      name: 'lectern_gateway_upstream_duration_seconds',
      help: 'From sending the request upstream to the end of its response.',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    }),
    overheadSeconds: new Histogram({
      name: 'lectern_gateway_overhead_seconds',
      help: 'Time the gateway adds to a request: its whole duration minus the upstream duration.',
      buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
      registers,
    }),
    queueDepth: new Gauge({
      name: 'lectern_gateway_log_queue_depth',
      help: 'Interactions waiting to be logged to the service.',
      registers,
    }),
    logsSent: new Counter({
      name: 'lectern_gateway_logs_sent_total',
      help: 'Interactions logged to the service.',
      registers,
    }),
    logsDropped: new Counter({
      name: 'lectern_gateway_logs_dropped_total',
      help: 'Interactions never logged: spool_full (the spool on disk is full), queue_full (the log worker fell behind reading them), rejected (invalid key or Action), no_credentials.',
      labelNames: ['reason'] as const,
      registers,
    }),
  };
}

export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>;
