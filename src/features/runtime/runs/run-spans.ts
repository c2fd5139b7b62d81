import { type Span, SpanKind } from '@opentelemetry/api';
import type { GenerationCost } from '../../../core/json-columns.js';
import type { ModelCallSteps } from '../../../llm/model-call.js';
import type { ServerTools } from '../../../llm/tool-registry.js';
import type { RunTrace, Tracing } from '../../../platform/tracing.js';

// The spans of a run below its root, named as the GenAI conventions name a model call so that a
// collector's GenAI views read Lectern's runs like any application's (docs/traces.md).

/** One model call's span: the run's generation sits on it (`lectern.generation`, and `data_guid` when read). */
function modelCallSpan(
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

/**
 * The spans of a run's model calls: one per call the answer took (a tool loop calls the model once a
 * round; a retried attempt is a failed span of its own). Each holds its own tokens, so the trace's
 * totals add up to the generation's; the last, which gave the answer, also holds the run's cost.
 */
export type ModelCallSpans = {
  /** What the model call reports its steps to. */
  steps: ModelCallSteps;
  /** The span a tool call nests under: the model call that asked for it. */
  current(): Span;
  /** The last model call's span, which the generation names. */
  last(): Span;
  /** Ends the last call's span with the run's cost. */
  end(cost: GenerationCost | undefined): void;
  /** Ends the open call's span as failed. */
  fail(error: unknown): void;
};

export function modelCallSpans(
  trace: RunTrace,
  model: { kind: string; modelName: string },
  generationId: string,
  tracing: Pick<Tracing, 'fail'>,
): ModelCallSpans {
  let open: Span | undefined;
  let latest: Span | undefined;
  // A span ends when the next call starts, or with the run: its tool calls are inside it.
  const start = () => {
    open?.end();
    open = modelCallSpan(trace, model, generationId);
    latest = open;
  };
  const current = () => {
    if (!latest) start();
    return latest!;
  };
  return {
    steps: {
      started: start,
      finished(usage) {
        const span = current();
        if (usage.inputTokens !== undefined)
          span.setAttribute('gen_ai.usage.input_tokens', usage.inputTokens);
        if (usage.outputTokens !== undefined)
          span.setAttribute('gen_ai.usage.output_tokens', usage.outputTokens);
      },
      failed(error) {
        if (open) tracing.fail(open, error);
        open = undefined;
      },
    },
    current,
    last: current,
    end(cost) {
      const span = current();
      if (cost) span.setAttribute('lectern.cost_usd', cost.generation);
      span.end();
      open = undefined;
    },
    fail(error) {
      tracing.fail(open ?? current(), error);
      open = undefined;
    },
  };
}

/** The run's tools, each call of one a span under the model call that asked for it. */
export function toolsTraced(tools: ServerTools, trace: RunTrace, calls: ModelCallSpans): ServerTools {
  if (trace.traceId === null || tools.implementations.size === 0) return tools;
  const implementations = new Map(
    [...tools.implementations].map(([name, implementation]) => [
      name,
      async (input: unknown, execution: Parameters<typeof implementation>[1]) => {
        const span = trace.child(
          `execute_tool ${name}`,
          { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name },
          SpanKind.INTERNAL,
          calls.current(),
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
