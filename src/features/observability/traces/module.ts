import { tracedCallCost } from '../../../llm/prices.js';
import type { ActionsModule } from '../../authoring/actions/module.js';
import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { GenerationsModule } from '../../runtime/generations/module.js';
import { createExportDecoder } from './export-decoder.js';
import { createTraceRepository } from './repository.js';
import { traceRoutes } from './routes.js';
import { createTraceService } from './service.js';

/**
 * Traces: applications' OpenTelemetry exports, Lectern's own runs and the gateway's logged calls,
 * in one span pipeline; their model calls become generations.
 */
export function createTracesModule(
  parts: ModuleParts,
  modules: { actions: ActionsModule; generations: GenerationsModule },
) {
  const { tracing } = parts.platform;
  const { generations } = modules.generations.services;
  const traces = createTraceService({
    repository: createTraceRepository(parts.database),
    tracing,
    findAction: modules.actions.services.actions.find,
    generationsInsert: generations.tracedInsert,
    generationsStored: generations.tracedStored,
    attachGenerations: generations.attachTraced,
    priceOf: tracedCallCost,
    retentionDays: parts.config.traceRetentionDays,
  });
  /** OTLP export bodies, decoded off the request thread when large. */
  const traceExports = createExportDecoder();
  // Lectern's own runs are traces of the workspace that ran them.
  tracing.setSink((spans) => traces.recordOwn(spans));
  modules.generations.ports.loggedTraces.provide((workspaceId, calls) =>
    traces.loggedCallTraces(workspaceId, calls),
  );
  return featureModule({
    services: { traces, traceExports },
    routes: { v1: [traceRoutes(traces, traceExports)] },
    close: () => traceExports.close(),
  });
}

export type TracesModule = ReturnType<typeof createTracesModule>;
