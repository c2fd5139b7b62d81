import { storableText } from '../../../platform/storable-text.js';
import type { Attributes, AttributeValue, ReceivedSpan } from './received-spans.js';

// What makes a span a model call, and where each instrumentation puts the model, the tokens and the
// messages. docs/traces.md has the table of every attribute read here; keep the two together.

/** The generation a model-call span describes. */
export type TracedCall = {
  model: string | null;
  provider: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  input: { role: string; content: string }[];
  output: string;
  /** `lectern.action` (a GUID or slug) and `lectern.version`, when the span or an ancestor has them. */
  action: string | null;
  version: number | null;
  session: string | null;
  error: string | null;
};

const text = (value: AttributeValue | undefined): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/** The largest count a generation stores (its columns are 32-bit integers). */
const largestCount = 2_147_483_647;

/**
 * A token count or a version: a whole number from 0 up to what a column holds. Anything else (a
 * negative count, 2^31) is no count, so a span cannot make a trace's totals negative or its insert fail.
 */
const count = (value: AttributeValue | undefined): number | null => {
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) return null;
  const whole = Math.trunc(number);
  return whole >= 0 && whole <= largestCount ? whole : null;
};

const first = <Value>(...values: (Value | null)[]): Value | null =>
  values.find((value) => value !== null) ?? null;

/** A JSON attribute's value, its strings made storable: an escaped `\u0000` becomes a NUL once parsed. */
function parsed(value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value, (_key, item) =>
      typeof item === 'string' ? storableText(item) : item,
    ) as AttributeValue;
  } catch {
    return value;
  }
}

/** The text of a message's content in any of the conventions' shapes: a string, parts, or `{ text }`. */
function contentText(content: AttributeValue | undefined): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(contentText).join('');
  if (content && typeof content === 'object') {
    if (typeof content.text === 'string') return content.text;
    if (typeof content.content === 'string') return content.content;
    if (content.parts !== undefined) return contentText(content.parts);
    if (content.type === 'tool_call' || content.type === 'tool-call') return JSON.stringify(content);
  }
  return '';
}

/** Messages from a JSON list of `{ role, content | parts }` (GenAI's and the AI SDK's). */
function messagesOf(value: AttributeValue | undefined): { role: string; content: string }[] {
  const list = parsed(value);
  if (!Array.isArray(list)) return typeof list === 'string' ? [{ role: 'user', content: list }] : [];
  return list.flatMap((message) =>
    message && typeof message === 'object' && !Array.isArray(message)
      ? [
          {
            role: typeof message.role === 'string' ? message.role : 'user',
            content: contentText(message.content ?? message.parts),
          },
        ]
      : [],
  );
}

/** Indexed attributes: `prefix.0.role`, `prefix.0.content` … (OpenLLMetry's and OpenInference's). */
function indexedMessages(
  attributes: Attributes,
  prefix: string,
  roleKey: string,
  contentKey: string,
): { role: string; content: string }[] {
  const messages: { role: string; content: string }[] = [];
  for (let index = 0; ; index += 1) {
    const role = attributes[`${prefix}.${index}.${roleKey}`];
    const content = attributes[`${prefix}.${index}.${contentKey}`];
    if (role === undefined && content === undefined) return messages;
    messages.push({ role: text(role) ?? 'user', content: contentText(content) });
  }
}

/** Messages from the `gen_ai.*.message` and `gen_ai.choice` events of the earlier GenAI conventions. */
function eventMessages(span: ReceivedSpan) {
  const input: { role: string; content: string }[] = [];
  let output = '';
  for (const event of span.events) {
    const match = /^gen_ai\.(system|user|assistant|tool)\.message$/.exec(event.name);
    const content = event.attributes.content ?? parsed(event.attributes.body);
    if (match?.[1]) input.push({ role: match[1], content: contentText(content) });
    if (event.name === 'gen_ai.choice') {
      const message = parsed(event.attributes.message);
      output += contentText(
        message && typeof message === 'object' && !Array.isArray(message) ? message.content : content,
      );
    }
  }
  return { input, output };
}

function isAiSdkCall(span: ReceivedSpan): boolean {
  // The AI SDK's outer spans (ai.generateText) total their inner provider calls: only the inner
  // ones (…doGenerate, …doStream) are generations, or a traced call would count twice.
  const operation = text(span.attributes['ai.operationId']) ?? span.name;
  return /^ai\.\w+\.do(Generate|Stream)$/.test(operation);
}

function isModelCall(span: ReceivedSpan): boolean {
  const attributes = span.attributes;
  if (isAiSdkCall(span)) return true;
  if (text(attributes['ai.operationId'])) return false;
  const operation = text(attributes['gen_ai.operation.name']);
  if (operation) return !['embeddings', 'execute_tool', 'invoke_agent', 'create_agent'].includes(operation);
  if (text(attributes['openinference.span.kind'])?.toUpperCase() === 'LLM') return true;
  // OpenLLMetry before the operation name: a request model with a prompt or usage.
  return (
    text(attributes['gen_ai.request.model']) !== null &&
    (attributes['gen_ai.prompt.0.content'] !== undefined ||
      attributes['gen_ai.usage.prompt_tokens'] !== undefined)
  );
}

/** The prompt version a span names: `lectern.action` and `lectern.version`, or the AI SDK's telemetry metadata of them. */
export function lecternMarks(attributes: Attributes): { action: string | null; version: number | null } {
  const action =
    text(attributes['lectern.action']) ?? text(attributes['ai.telemetry.metadata.lectern.action']);
  const version = count(attributes['lectern.version'] ?? attributes['ai.telemetry.metadata.lectern.version']);
  return { action, version: version === 0 ? null : version };
}

/**
 * The generation a span describes, or undefined when it is not a model call. `ancestors` are the
 * span's parents up to the root, as far as they are known, nearest first: a `lectern.action` set on
 * a span around the call (the Lectern client's render) names the call's prompt version.
 */
export function tracedCall(span: ReceivedSpan, ancestors: ReceivedSpan[]): TracedCall | undefined {
  if (!isModelCall(span)) return undefined;
  const attributes = span.attributes;
  const events = eventMessages(span);
  const input =
    [
      messagesOf(attributes['gen_ai.input.messages']),
      messagesOf(attributes['ai.prompt.messages']),
      indexedMessages(attributes, 'llm.input_messages', 'message.role', 'message.content'),
      indexedMessages(attributes, 'gen_ai.prompt', 'role', 'content'),
      events.input,
    ].find((messages) => messages.length > 0) ?? [];
  const instructions = messagesOf(attributes['gen_ai.system_instructions']);
  const outputMessages = [
    messagesOf(attributes['gen_ai.output.messages']),
    indexedMessages(attributes, 'llm.output_messages', 'message.role', 'message.content'),
    indexedMessages(attributes, 'gen_ai.completion', 'role', 'content'),
  ].find((messages) => messages.length > 0);
  const output =
    outputMessages?.map((message) => message.content).join('\n') ??
    first(text(attributes['ai.response.text']), text(attributes['output.value']), events.output || null) ??
    '';
  const marks = [span, ...ancestors].map((each) => lecternMarks(each.attributes)).find((mark) => mark.action);
  return {
    model: first(
      text(attributes['gen_ai.response.model']),
      text(attributes['gen_ai.request.model']),
      text(attributes['ai.response.model']),
      text(attributes['ai.model.id']),
      text(attributes['llm.model_name']),
    ),
    provider: first(
      // The AI SDK names the API too (`openai.chat`, `openai.responses`): the vendor is before the dot.
      isAiSdkCall(span) ? (text(attributes['ai.model.provider'])?.split('.')[0] ?? null) : null,
      text(attributes['gen_ai.provider.name']),
      text(attributes['gen_ai.system']),
      text(attributes['llm.provider']),
      text(attributes['llm.system']),
    ),
    inputTokens: first(
      count(attributes['gen_ai.usage.input_tokens']),
      count(attributes['gen_ai.usage.prompt_tokens']),
      count(attributes['ai.usage.inputTokens']),
      count(attributes['ai.usage.promptTokens']),
      count(attributes['llm.token_count.prompt']),
    ),
    outputTokens: first(
      count(attributes['gen_ai.usage.output_tokens']),
      count(attributes['gen_ai.usage.completion_tokens']),
      count(attributes['ai.usage.outputTokens']),
      count(attributes['ai.usage.completionTokens']),
      count(attributes['llm.token_count.completion']),
    ),
    input: [...instructions.map((message) => ({ ...message, role: 'system' })), ...input],
    output,
    action: marks?.action ?? null,
    version: marks?.version ?? null,
    session: sessionOf(span),
    error:
      span.status === 'ERROR'
        ? span.statusMessage || text(attributes['error.type']) || 'the call failed'
        : null,
  };
}

/** The conversation a span belongs to: `session.id` (OpenInference's, and common) or GenAI's `gen_ai.conversation.id`. */
export function sessionOf(span: ReceivedSpan): string | null {
  return first(text(span.attributes['session.id']), text(span.attributes['gen_ai.conversation.id']));
}
