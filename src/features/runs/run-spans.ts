import { type Span, SpanKind } from '@opentelemetry/api';
import type { GenerationCost } from '../../core/json-columns.js';
import type { ModelAnswer } from '../../llm/model-call.js';
import type { ServerTools } from '../../llm/tool-registry.js';
import type { RunTrace } from '../../platform/tracing.js';

// The spans of a run below its root, named as the GenAI conventions name a model call so that a
// collector's GenAI views read Lectern's runs like any application's (docs/traces.md).

/** The model call's span: its generation sits on it (`lectern.generation`, and `data_guid` when read). */
export function modelCallSpan(
  trace: RunTrace,
  model: { kind: string; modelName: string },
  generationId: string,
): Span {
  return trace.child(
    `chat ${model.modelName}`,
    {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': model.kind,
      'gen_ai.request.model': model.modelName,
      'lectern.generation': generationId,
    },
    SpanKind.CLIENT,
  );
}

/** Ends the model call's span with its usage and price (the trace's totals add them up). */
export function endModelCall(span: Span, answer: ModelAnswer, cost: GenerationCost | undefined): void {
  if (cost) span.setAttribute('lectern.cost_usd', cost.generation);
  if (answer.usage.inputTokens !== null)
    span.setAttribute('gen_ai.usage.input_tokens', answer.usage.inputTokens);
  if (answer.usage.outputTokens !== null)
    span.setAttribute('gen_ai.usage.output_tokens', answer.usage.outputTokens);
  span.end();
}

/** The run's tools, each call of one a span under the model call that asked for it. */
export function toolsTraced(tools: ServerTools, trace: RunTrace, call: Span): ServerTools {
  if (trace.traceId === null || tools.implementations.size === 0) return tools;
  const implementations = new Map(
    [...tools.implementations].map(([name, implementation]) => [
      name,
      async (input: unknown, execution: Parameters<typeof implementation>[1]) => {
        const span = trace.child(
          `execute_tool ${name}`,
          { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name },
          SpanKind.INTERNAL,
          call,
        );
        try {
          const result = await implementation(input, execution);
          span.end();
          return result;
        } catch (error) {
          span.setStatus({ code: 2, message: error instanceof Error ? error.message : String(error) });
          span.end();
          throw error;
        }
      },
    ]),
  );
  return { ...tools, implementations };
}
