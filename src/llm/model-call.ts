import type { LanguageModelV3 } from '@ai-sdk/provider';
import {
  generateText,
  jsonSchema,
  type ModelMessage,
  type Output as OutputNamespace,
  type StepResult,
  stepCountIs,
  streamText,
  type ToolSet,
} from 'ai';
import type { ModelConfig } from '../core/json-columns.js';
import type { ProviderError } from '../errors.js';
import { storableText } from '../platform/storable-text.js';
import type { TokenUsage } from './prices.js';
import { requestedRetryDelayMs, toProviderError } from './provider-errors.js';
import type { ProviderKind } from './provider-kinds.js';
import type { ServerTools } from './tool-registry.js';

/** Tool rounds (model → tools → model) one run may take before it answers with what it has. */
const maximumToolRounds = 5;
const defaultRetries = 2;
const firstRetryDelayMs = 250;
const longestRetryDelayMs = 10_000;
/** A model call's deadline, retries included, when `model_config.timeout` does not set one. */
export const defaultCallTimeoutSeconds = 300;

export type ModelCall = {
  model: LanguageModelV3;
  kind: ProviderKind;
  messages: ModelMessage[];
  config: ModelConfig;
  /** A JSON Schema the answer must follow (modelOptions.jsonSchema or model_config). */
  jsonSchema?: Record<string, unknown>;
  tools: ServerTools;
  /** When false, tool calls are returned to the caller even where the server could run them. */
  executeTools: boolean;
  workspaceId: string;
  /** How many Action runs this call is nested in (0 for a request's own run). */
  depth?: number;
  store?: boolean;
  signal?: AbortSignal;
  /** Given for streaming: called with each text token as the provider sends it. */
  onToken?: (token: string) => void;
  /** Told of each model call of the run: a tool loop is one call per round, a retry one per attempt. */
  steps?: ModelCallSteps;
};

/** Observes the model calls one answer takes (a run traces each as a span of its own). */
export type ModelCallSteps = {
  /** A model call starts. */
  started(): void;
  /** The model call answered (its tools, if any, have run), using these tokens. */
  finished(usage: { inputTokens?: number; outputTokens?: number }): void;
  /** An attempt failed and will be retried. */
  failed(error: unknown): void;
};

export type ToolCallRecord = { id: string; type: 'function'; function: { name: string; arguments: string } };

export type ModelAnswer = {
  /** The API's `msg`: the text, or with unexecuted tool calls the JSON `{ content, tool_calls }`. */
  msg: string;
  text: string;
  toolCalls: ToolCallRecord[];
  usage: TokenUsage;
};

/** A response format that asks for JSON but leaves the text as it is: the run returns it verbatim. */
type TextOutput = OutputNamespace.Output<string, string, never>;

function jsonOutput(schema: Record<string, unknown> | undefined): TextOutput {
  return {
    name: 'json',
    responseFormat: Promise.resolve({ type: 'json', ...(schema ? { schema } : {}) }),
    parseCompleteOutput: async ({ text }: { text: string }) => text,
    parsePartialOutput: async ({ text }: { text: string }) => ({ partial: text }),
    createElementStreamTransform: () => undefined,
  } as TextOutput;
}

function toolSet(call: ModelCall): ToolSet | undefined {
  if (call.tools.definitions.length === 0) return undefined;
  const tools: ToolSet = {};
  for (const definition of call.tools.definitions) {
    const implementation = call.executeTools ? call.tools.implementations.get(definition.name) : undefined;
    tools[definition.name] = {
      description: definition.description,
      inputSchema: jsonSchema(definition.parameters ?? { type: 'object', properties: {} }),
      // Without execute the SDK stops and returns the call: the caller runs it.
      ...(implementation && {
        execute: (input: unknown, options: { abortSignal?: AbortSignal }) =>
          implementation(input, {
            workspaceId: call.workspaceId,
            signal: options.abortSignal,
            depth: call.depth ?? 0,
          }),
      }),
    } as ToolSet[string];
  }
  return tools;
}

function settings(call: ModelCall, signal: AbortSignal | undefined) {
  const { config } = call;
  const schema =
    call.jsonSchema ?? (config.response_format === 'json_schema' ? config.json_schema : undefined);
  const wantsJson = schema !== undefined || config.response_format === 'json_object';
  const tools = toolSet(call);
  return {
    model: call.model,
    messages: call.messages,
    temperature: config.temperature,
    topP: config.top_p,
    maxOutputTokens: config.max_response_length,
    presencePenalty: config.presence_penalty,
    frequencyPenalty: config.frequency_penalty,
    stopSequences: config.stop,
    seed: config.seed,
    // Retries are ours (bounded, never on a 4xx other than 429); the SDK's would double them.
    maxRetries: 0,
    // System messages come from the Action's own template, in the order it wrote them.
    allowSystemInMessages: true,
    abortSignal: signal,
    ...(tools && { tools, stopWhen: stepCountIs(maximumToolRounds) }),
    ...(wantsJson && { output: jsonOutput(schema) }),
    ...(call.steps && stepObserver(call.steps)),
    ...(call.store !== undefined &&
      call.kind === 'openai' && { providerOptions: { openai: { store: call.store } } }),
  };
}

/** The SDK's callbacks around each step (one model call, then the tools it asked for). */
function stepObserver(steps: ModelCallSteps) {
  return {
    prepareStep: () => {
      steps.started();
      return undefined;
    },
    onStepFinish: (step: { usage: { inputTokens?: number; outputTokens?: number } }) =>
      steps.finished(step.usage),
  };
}

function answerOf(
  steps: StepResult<ToolSet>[],
  usage: { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number },
): ModelAnswer {
  const last = steps.at(-1);
  // Every step's text, as a stream shows it; tool-call steps rarely have any. A model may answer with
  // NUL, which PostgreSQL cannot store: the run keeps everything else (the stream drops it likewise).
  const text = storableText(steps.map((step) => step.text).join(''));
  const executed = new Set(last?.toolResults.map((result) => result.toolCallId) ?? []);
  const toolCalls: ToolCallRecord[] = (last?.toolCalls ?? [])
    .filter((call) => !executed.has(call.toolCallId))
    .map((call) => ({
      id: call.toolCallId,
      type: 'function',
      function: {
        name: call.toolName,
        arguments: JSON.stringify(call.input ?? {}, (_key, value) =>
          typeof value === 'string' ? storableText(value) : value,
        ),
      },
    }));
  const msg =
    toolCalls.length > 0
      ? JSON.stringify({ content: text === '' ? null : text, tool_calls: toolCalls })
      : text;
  return {
    msg,
    text,
    toolCalls,
    usage: {
      inputTokens: usage.inputTokens ?? 0,
      outputTokens: usage.outputTokens ?? 0,
      cachedInputTokens: usage.cachedInputTokens,
    },
  };
}

async function attempt(
  call: ModelCall,
  signal: AbortSignal | undefined,
  onFirstToken: () => void,
): Promise<ModelAnswer> {
  if (!call.onToken) {
    const result = await generateText(settings(call, signal));
    return answerOf(result.steps, result.totalUsage);
  }
  // Errors arrive as `error` parts below; the default handler would also print them to stderr.
  const result = streamText({ ...settings(call, signal), onError: () => undefined });
  // streamText reports failures as stream parts instead of throwing (docs/architecture.md).
  for await (const part of result.fullStream) {
    const token = part.type === 'text-delta' ? storableText(part.text) : '';
    if (token !== '') {
      onFirstToken();
      call.onToken(token);
    } else if (part.type === 'error') {
      throw part.error;
    } else if (part.type === 'abort') {
      throw signal?.reason ?? new Error('aborted');
    }
  }
  return answerOf(await result.steps, await result.totalUsage);
}

function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, milliseconds);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/**
 * One model answer through the AI SDK, with bounded retries (`num_retries`, default 2) and
 * exponential backoff on retryable provider errors only, all within one deadline (`timeout` seconds,
 * default 300): an attempt gets the time that is left, and no retry starts that could not finish in
 * it — a hanging, resetting or rate-limiting upstream cannot hold a run longer than its timeout.
 * A stream is retried only until its first token: after that the caller has already sent text.
 */
export async function callModel(call: ModelCall): Promise<ModelAnswer> {
  const retries = call.config.num_retries ?? defaultRetries;
  const providerName = call.kind;
  const deadline = performance.now() + (call.config.timeout ?? defaultCallTimeoutSeconds) * 1000;
  let streamed = false;
  for (let attemptNumber = 0; ; attemptNumber += 1) {
    const timeout = AbortSignal.timeout(Math.max(1, Math.round(deadline - performance.now())));
    const signal = call.signal ? AbortSignal.any([timeout, call.signal]) : timeout;
    try {
      return await attempt(call, signal, () => {
        streamed = true;
      });
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason ?? error;
      const failure: ProviderError = toProviderError(error, providerName);
      if (!failure.retryable || streamed || attemptNumber >= retries) throw failure;
      call.steps?.failed(failure);
      const backoff = firstRetryDelayMs * 2 ** attemptNumber * (0.75 + Math.random() / 2);
      const delay = Math.min(requestedRetryDelayMs(failure) ?? backoff, longestRetryDelayMs);
      // Waiting past the deadline would only end in a timeout: answer with this failure now.
      if (performance.now() + delay >= deadline) throw failure;
      await sleep(delay, call.signal);
    }
  }
}
