import { countTokens } from '../llm/token-count.js';

/** One proxied exchange, captured on the hot path and turned into a generation later, off it. */
export type CompletedExchange = {
  serviceKey: string;
  actionGuid: string;
  /** The request body as forwarded upstream. */
  requestBody: Buffer;
  /** The Action's variables of a managed prompt (`action:<slug>`), logged as the input. */
  variables?: unknown;
  /** A managed prompt's version and environment, as the service rendered it. */
  actionVersion?: number;
  actionEnvironment?: string;
  responseChunks: Buffer[];
  status: number;
  contentType: string | undefined;
  latencyMs: number;
  /** The client left or the upstream failed before the response ended. */
  interrupted: boolean;
  upstreamHost: string;
  /** The client's W3C `traceparent`: the interaction's trace joins the caller's. */
  traceparent?: string;
};

/** What `POST /v1/data` (docs/api.md#generations-v1data) stores for a gateway interaction. */
export type GenerationRecord = {
  action: string;
  input: unknown;
  output: string;
  full_prompt_sent: { role: string; content: string }[];
  num_input_tokens: number;
  num_output_tokens: number;
  model: string | null;
  model_provider: string;
  latency_ms: number;
  metadata: Record<string, unknown>;
  source: 'gateway';
  version?: number;
  environment?: string;
};

type ChatMessage = { role?: unknown; content?: unknown };
type Usage = { prompt_tokens?: number; completion_tokens?: number };
type ToolCall = { id?: string; type?: string; function?: { name?: string; arguments?: string } };

const promptRoles = new Set(['system', 'developer', 'user', 'assistant']);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
    .join('');
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The API's msg convention (docs/api.md#runs): the text, or with tool calls the JSON of content and tool calls. */
function outputOf(content: string, toolCalls: ToolCall[]): string {
  if (toolCalls.length === 0) return content;
  return JSON.stringify({ content: content === '' ? null : content, tool_calls: toolCalls });
}

type ParsedResponse = {
  output: string;
  usage?: Usage;
  model?: string;
  finishReason?: string;
  complete: boolean;
};

/** A `stream: true` response: the text of every delta of the first choice, and the usage if sent. */
function parseEventStream(text: string): ParsedResponse {
  let content = '';
  const toolCalls: ToolCall[] = [];
  const parsed: ParsedResponse = { output: '', complete: false };
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '[DONE]') {
      parsed.complete = true;
      continue;
    }
    const chunk = parseJson(data);
    if (!chunk) continue;
    if (typeof chunk.model === 'string') parsed.model = chunk.model;
    if (chunk.usage) parsed.usage = chunk.usage as Usage;
    const choice = (
      chunk.choices as { index?: number; delta?: Record<string, unknown>; finish_reason?: string }[]
    )?.find((candidate) => (candidate.index ?? 0) === 0);
    if (!choice) continue;
    if (typeof choice.delta?.content === 'string') content += choice.delta.content;
    for (const delta of (choice.delta?.tool_calls as (ToolCall & { index?: number })[]) ?? []) {
      const index = delta.index ?? toolCalls.length;
      toolCalls[index] ??= { id: delta.id, type: 'function', function: { name: '', arguments: '' } };
      const call = toolCalls[index]!;
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.function!.name += delta.function.name;
      if (delta.function?.arguments) call.function!.arguments += delta.function.arguments;
    }
    if (choice.finish_reason) parsed.finishReason = choice.finish_reason;
  }
  parsed.output = outputOf(content, toolCalls);
  return parsed;
}

function parseCompletion(text: string): ParsedResponse {
  const body = parseJson(text);
  if (!body) return { output: '', complete: false };
  const choice = (
    body.choices as { message?: { content?: unknown; tool_calls?: ToolCall[] }; finish_reason?: string }[]
  )?.[0];
  return {
    output: outputOf(textOf(choice?.message?.content), choice?.message?.tool_calls ?? []),
    usage: body.usage as Usage | undefined,
    model: typeof body.model === 'string' ? body.model : undefined,
    finishReason: choice?.finish_reason,
    complete: true,
  };
}

/** An upstream error's type and code — never its message, which may quote part of the provider key. */
function errorOf(text: string): Record<string, unknown> | undefined {
  const error = parseJson(text)?.error as { type?: unknown; code?: unknown } | undefined;
  if (!error || typeof error !== 'object') return undefined;
  return { type: error.type ?? null, code: error.code ?? null };
}

/** The bytes an exchange holds (its request and response bodies): what waiting to log it costs. */
export function exchangeBytes(exchange: Pick<CompletedExchange, 'requestBody' | 'responseChunks'>): number {
  return (
    exchange.requestBody.byteLength +
    exchange.responseChunks.reduce((total, chunk) => total + chunk.byteLength, 0)
  );
}

/** Characters kept of each logged text when the caller names no limit. */
export const defaultLogTextLimit = 65_536;

/**
 * The generation of an exchange. Each text — a message, the output — keeps at most `textLimit`
 * characters (the record says `truncated`), so one huge request cannot make a huge log entry.
 */
export function toGenerationRecord(
  exchange: CompletedExchange,
  textLimit = defaultLogTextLimit,
): GenerationRecord {
  const record = fullGenerationRecord(exchange);
  let truncated = false;
  const cut = (text: string) => {
    if (text.length <= textLimit) return text;
    truncated = true;
    return text.slice(0, textLimit);
  };
  const limited: GenerationRecord = {
    ...record,
    output: cut(record.output),
    full_prompt_sent: record.full_prompt_sent.map((message) => ({
      ...message,
      content: cut(message.content),
    })),
    input: Array.isArray(record.input)
      ? record.input.map((message: ChatMessage) =>
          typeof message?.content === 'string' ? { ...message, content: cut(message.content) } : message,
        )
      : record.input,
  };
  if (truncated) limited.metadata = { ...limited.metadata, truncated: true };
  return limited;
}

/**
 * The generation of an exchange: request messages, output reassembled from the stream, model and
 * usage (counted with cl100k when the provider sent none: a streaming caller chooses whether to ask
 * for usage), latency and status. An interrupted exchange is marked `incomplete`.
 */
function fullGenerationRecord(exchange: CompletedExchange): GenerationRecord {
  const request = parseJson(exchange.requestBody.toString('utf8')) ?? {};
  const messages = Array.isArray(request.messages) ? (request.messages as ChatMessage[]) : [];
  const text = Buffer.concat(exchange.responseChunks).toString('utf8');
  const succeeded = exchange.status < 400;
  const response = !succeeded
    ? { output: '', complete: true }
    : exchange.contentType?.includes('text/event-stream')
      ? parseEventStream(text)
      : parseCompletion(text);
  const promptText = messages.map((message) => textOf(message.content)).join('\n');
  const estimated = !response.usage;
  const incomplete = exchange.interrupted || !response.complete;
  return {
    action: exchange.actionGuid,
    input: exchange.variables ?? messages,
    output: response.output,
    full_prompt_sent: messages
      .filter((message) => typeof message.role === 'string' && promptRoles.has(message.role))
      .map((message) => ({ role: message.role as string, content: textOf(message.content) })),
    num_input_tokens: response.usage?.prompt_tokens ?? countTokens(promptText),
    num_output_tokens: response.usage?.completion_tokens ?? countTokens(response.output),
    model: response.model ?? (typeof request.model === 'string' ? request.model : null),
    model_provider: exchange.upstreamHost,
    latency_ms: Math.round(exchange.latencyMs),
    metadata: {
      status: exchange.status,
      stream: request.stream === true,
      ...(incomplete && { incomplete: true }),
      ...(estimated && { usage_estimated: true }),
      ...(response.finishReason && { finish_reason: response.finishReason }),
      ...(!succeeded && { error: errorOf(text) ?? null }),
      ...(exchange.traceparent && { traceparent: exchange.traceparent }),
    },
    source: 'gateway',
    ...(exchange.actionVersion !== undefined && { version: exchange.actionVersion }),
    ...(exchange.actionEnvironment !== undefined && { environment: exchange.actionEnvironment }),
  };
}
