import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3Content,
  type LanguageModelV3FinishReason,
  type LanguageModelV3Message,
  type LanguageModelV3StreamPart,
  type LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { nextTurn } from '../core/next-turn.js';
import { lazyWordTokens, wordTokens } from './tokens.js';

/**
 * The deterministic `mock` provider of docs/api.md#the-mock-provider: no key, no network. It goes through the same
 * AI SDK calls as a real provider, so everything built on it exercises the real code path.
 */
export const mockModelNames = ['echo', 'slow', 'error', 'tool', 'json'] as const;
export type MockModelName = (typeof mockModelNames)[number];

export function isMockModelName(name: string): name is MockModelName {
  return (mockModelNames as readonly string[]).includes(name);
}

const slowTokenDelayMs = 50;

/**
 * The longest mock reply, in characters: plenty for tests and demos. An echo of a huge prompt is cut
 * here, so a tenant cannot make the service stream megabytes of fake tokens.
 */
export const mockReplyLimit = 16_384;

/** Tokens handed on between two yields to the event loop, so a long reply never holds the thread. */
const tokensPerTurn = 64;

function capped(text: string): string {
  if (text.length <= mockReplyLimit) return text;
  // Never end on half of a surrogate pair.
  const end = /[\ud800-\udbff]/.test(text[mockReplyLimit - 1]!) ? mockReplyLimit - 1 : mockReplyLimit;
  return text.slice(0, end);
}

function messageText(message: LanguageModelV3Message | undefined): string {
  if (!message) return '';
  if (message.role === 'system') return message.content;
  return message.content
    .map((part) => {
      if (part.type === 'text' || part.type === 'reasoning') return part.text;
      if (part.type === 'tool-result') return toolResultText(part.output);
      return '';
    })
    .join('');
}

function toolResultText(output: { type: string; value?: unknown; reason?: string }): string {
  if (output.type === 'text' || output.type === 'error-text') return String(output.value);
  if (output.type === 'execution-denied') return output.reason ?? 'denied';
  return JSON.stringify(output.value);
}

function lastUserText(prompt: LanguageModelV3Message[]): string {
  return messageText(prompt.findLast((message) => message.role === 'user'));
}

/** Whitespace-separated words (the mock's token count). */
export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function usage(prompt: LanguageModelV3Message[], outputText: string): LanguageModelV3Usage {
  const input = prompt.reduce((total, message) => total + countWords(messageText(message)), 0);
  const output = countWords(outputText);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

type Reply = { kind: 'text'; text: string } | { kind: 'tool-call'; toolName: string; input: string };

function replyFor(modelName: MockModelName, options: LanguageModelV3CallOptions): Reply {
  const { prompt } = options;
  if (modelName === 'error') {
    throw new APICallError({
      message: 'mock provider unavailable (mock/error always fails)',
      url: 'mock://error',
      requestBodyValues: {},
      statusCode: 503,
      isRetryable: false,
    });
  }
  if (modelName === 'json')
    return { kind: 'text', text: JSON.stringify({ echo: capped(lastUserText(prompt)) }) };
  if (modelName === 'tool') {
    const last = prompt.at(-1);
    if (last?.role === 'tool') return { kind: 'text', text: capped(`tool said: ${messageText(last)}`) };
    const firstTool = options.tools?.find((tool) => tool.type === 'function');
    if (firstTool) {
      return {
        kind: 'tool-call',
        toolName: firstTool.name,
        input: JSON.stringify({ input: capped(lastUserText(prompt)) }),
      };
    }
  }
  return { kind: 'text', text: capped(messageText(prompt.at(-1))) };
}

function delay(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, milliseconds);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

const stopReason: LanguageModelV3FinishReason = { unified: 'stop', raw: 'stop' };
const toolCallsReason: LanguageModelV3FinishReason = { unified: 'tool-calls', raw: 'tool_calls' };

export class MockLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'mock';
  // Every URL is passed through as is: the mock never downloads anything.
  readonly supportedUrls = { '*/*': [/^.*$/] };
  private callCount = 0;

  constructor(readonly modelId: MockModelName) {}

  private nextCallId(): string {
    this.callCount += 1;
    return `mock-call-${this.callCount}`;
  }

  async doGenerate(options: LanguageModelV3CallOptions) {
    const reply = replyFor(this.modelId, options);
    if (reply.kind === 'tool-call') {
      const content: LanguageModelV3Content[] = [
        { type: 'tool-call', toolCallId: this.nextCallId(), toolName: reply.toolName, input: reply.input },
      ];
      return {
        content,
        finishReason: toolCallsReason,
        usage: usage(options.prompt, reply.input),
        warnings: [],
      };
    }
    if (this.modelId === 'slow') {
      await delay(slowTokenDelayMs * wordTokens(reply.text).length, options.abortSignal);
    }
    const content: LanguageModelV3Content[] = [{ type: 'text', text: reply.text }];
    return { content, finishReason: stopReason, usage: usage(options.prompt, reply.text), warnings: [] };
  }

  async doStream(options: LanguageModelV3CallOptions) {
    const reply = replyFor(this.modelId, options);
    const tokenDelayMs = this.modelId === 'slow' ? slowTokenDelayMs : 0;
    const callId = this.nextCallId();
    const prompt = options.prompt;
    const signal = options.abortSignal;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      async start(controller) {
        try {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          if (reply.kind === 'tool-call') {
            controller.enqueue({
              type: 'tool-call',
              toolCallId: callId,
              toolName: reply.toolName,
              input: reply.input,
            });
            controller.enqueue({
              type: 'finish',
              finishReason: toolCallsReason,
              usage: usage(prompt, reply.input),
            });
          } else {
            controller.enqueue({ type: 'text-start', id: callId });
            let handed = 0;
            for (const token of lazyWordTokens(reply.text)) {
              if (tokenDelayMs > 0) await delay(tokenDelayMs, signal);
              else if (++handed % tokensPerTurn === 0) await nextTurn();
              signal?.throwIfAborted();
              controller.enqueue({ type: 'text-delta', id: callId, delta: token });
            }
            controller.enqueue({ type: 'text-end', id: callId });
            controller.enqueue({
              type: 'finish',
              finishReason: stopReason,
              usage: usage(prompt, reply.text),
            });
          }
          controller.close();
        } catch (error) {
          controller.error(error);
        }
      },
    });
    return { stream };
  }
}
