import type { NamedStatement } from '../../../platform/database/statements.js';
import type { RecordedCall } from '../../../platform/tracing.js';
import type { LoggedCall } from '../../runtime/generations/index.js';

// The calls the gateway logged, as traces: a root span and the model call under it
// (platform/tracing.ts makes the two ended spans), stored in the statement of their generations.

/** A logged call's trace, for the generation that names it, with the statements that store it. */
export type LoggedCallTraces = {
  spanOf: Map<string, { traceId: string; spanId: string }>;
  statements: NamedStatement[];
  /** Called once they are stored: the spans go to the collector, when there is one. */
  stored(): void;
};

/** A proxied interaction's trace: it ended as it was logged, and took its latency. */
export function recordedCall(call: LoggedCall): RecordedCall {
  const endMs = Date.now();
  return {
    name: `gateway ${call.model ?? ''}`.trim(),
    startMs: endMs - (call.latencyMs ?? 0),
    endMs,
    attributes: {
      'gen_ai.operation.name': 'chat',
      ...(call.modelProvider && { 'server.address': call.modelProvider }),
      ...(call.model && { 'gen_ai.request.model': call.model }),
      ...(call.inputTokens != null && { 'gen_ai.usage.input_tokens': call.inputTokens }),
      ...(call.outputTokens != null && { 'gen_ai.usage.output_tokens': call.outputTokens }),
      'lectern.generation': call.generationId,
      ...(call.actionId && { 'lectern.action': call.actionId }),
      ...(call.version && { 'lectern.version': call.version }),
      ...(call.cost && { 'lectern.cost_usd': call.cost.generation }),
    },
    traceparent: call.traceparent,
    error: call.error,
  };
}
