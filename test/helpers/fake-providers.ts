import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One local HTTP server speaking each provider's wire protocol (recorded-fixture style), so the real
 * AI SDK adapters run end to end without the network. The last user text steers it:
 *   contains "FAIL400"  → the provider's 400 error body;
 *   contains "RATE429"  → 429 (with retry-after: 0) for the first `rateLimitFailures` calls, then an answer;
 *   otherwise           → "reply: <text>" (streamed in word tokens when asked), with token usage.
 * Mount paths: /openai, /anthropic, /google, /mistral, /groq, /compatible.
 */
export type Protocol = 'openai' | 'anthropic' | 'google' | 'mistral' | 'groq' | 'compatible';

export type RecordedRequest = {
  protocol: Protocol;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
};

export type FakeProviders = {
  url: string;
  requests: RecordedRequest[];
  rateLimitFailures: number;
  close(): Promise<void>;
};

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part) => (part && typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}

function lastUserText(protocol: Protocol, body: any): string {
  if (protocol === 'google') {
    const last = [...(body.contents ?? [])].reverse().find((content: any) => content.role === 'user');
    return textOf(last?.parts);
  }
  const last = [...(body.messages ?? [])].reverse().find((message: any) => message.role === 'user');
  return textOf(last?.content);
}

const words = (text: string) => text.split(/(?<=\S)(?=\s)/).filter(Boolean);

function errorBody(protocol: Protocol, status: number, message: string): unknown {
  if (protocol === 'anthropic') {
    return {
      type: 'error',
      error: { type: status === 429 ? 'rate_limit_error' : 'invalid_request_error', message },
    };
  }
  if (protocol === 'google') {
    return {
      error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INVALID_ARGUMENT' },
    };
  }
  if (protocol === 'mistral')
    return { object: 'error', message, type: 'invalid_request_error', param: null, code: null };
  return {
    error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error', code: null },
  };
}

function sse(response: ServerResponse, events: { event?: string; data: unknown }[]): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const { event, data } of events) {
    response.write(
      `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    );
  }
  response.end();
}

function answer(protocol: Protocol, model: string, text: string, stream: boolean, response: ServerResponse) {
  const inputTokens = 7;
  const outputTokens = words(text).length;
  const tokens = words(text);
  if (protocol === 'anthropic') {
    if (!stream) {
      return json(response, 200, {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: outputTokens },
      });
    }
    return sse(response, [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: inputTokens, output_tokens: 1 },
          },
        },
      },
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      },
      ...tokens.map((token) => ({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: token } },
      })),
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      {
        event: 'message_delta',
        data: {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: outputTokens },
        },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]);
  }
  if (protocol === 'google') {
    const usageMetadata = {
      promptTokenCount: inputTokens,
      candidatesTokenCount: outputTokens,
      totalTokenCount: inputTokens + outputTokens,
    };
    if (!stream) {
      return json(response, 200, {
        candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason: 'STOP', index: 0 }],
        usageMetadata,
      });
    }
    return sse(
      response,
      tokens.map((token, index) => ({
        data: {
          candidates: [
            {
              content: { parts: [{ text: token }], role: 'model' },
              index: 0,
              ...(index === tokens.length - 1 && { finishReason: 'STOP' }),
            },
          ],
          ...(index === tokens.length - 1 && { usageMetadata }),
        },
      })),
    );
  }
  // OpenAI chat completions and the servers that copy it (Mistral, Groq, OpenAI-compatible).
  const usage = {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
  };
  const base = { id: 'chatcmpl-1', created: 1_700_000_000, model };
  if (!stream) {
    return json(response, 200, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage,
    });
  }
  const chunk = (delta: object, finishReason: string | null, extra: object = {}) => ({
    data: {
      ...base,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finishReason }],
      ...extra,
    },
  });
  const usageExtra = protocol === 'groq' ? { x_groq: { usage } } : protocol === 'mistral' ? { usage } : {};
  sse(response, [
    chunk({ role: 'assistant', content: '' }, null),
    ...tokens.map((token) => chunk({ content: token }, null)),
    chunk({}, 'stop', usageExtra),
    ...(protocol === 'openai' || protocol === 'compatible'
      ? [{ data: { ...base, object: 'chat.completion.chunk', choices: [], usage } }]
      : []),
    { data: '[DONE]' },
  ]);
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** An 8-dimensional bag-of-words vector: texts sharing words get similar vectors. */
export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(8).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let hash = 0;
    for (const character of word) hash = (Math.imul(hash, 31) + character.charCodeAt(0)) | 0;
    vector[Math.abs(hash) % 8]! += 1;
  }
  return vector;
}

/** Embeddings in the OpenAI (also Mistral, compatible) or Google wire format; `undefined` for other paths. */
function embeddingAnswer(protocol: Protocol, path: string, body: any): unknown {
  if (protocol === 'google' && path.includes(':embedContent')) {
    return { embedding: { values: fakeEmbedding(textOf(body.content.parts)) } };
  }
  if (protocol === 'google' && path.includes(':batchEmbedContents')) {
    return {
      embeddings: body.requests.map((item: any) => ({ values: fakeEmbedding(textOf(item.content.parts)) })),
    };
  }
  if (protocol !== 'google' && path.endsWith('/embeddings')) {
    const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
    return {
      object: 'list',
      data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) })),
      model: body.model,
      usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
    };
  }
  return undefined;
}

export async function startFakeProviders(): Promise<FakeProviders> {
  const requests: RecordedRequest[] = [];
  const rateLimited = new Map<string, number>();
  const state = { rateLimitFailures: 1 };
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const protocol = url.pathname.split('/')[1] as Protocol;
      const body = raw ? JSON.parse(raw) : {};
      requests.push({ protocol, path: url.pathname + url.search, headers: request.headers, body });
      const embeddings = embeddingAnswer(protocol, url.pathname, body);
      if (embeddings) return json(response, 200, embeddings);
      const text = lastUserText(protocol, body);
      const stream =
        protocol === 'google' ? url.pathname.includes(':streamGenerateContent') : body.stream === true;
      const model = protocol === 'google' ? (/models\/([^:]+)/.exec(url.pathname)?.[1] ?? '') : body.model;
      if (text.includes('FAIL400'))
        return json(response, 400, errorBody(protocol, 400, 'the request was refused (FAIL400)'));
      if (text.includes('RATE429')) {
        const key = `${protocol}:${text}`;
        const failures = rateLimited.get(key) ?? 0;
        if (failures < state.rateLimitFailures) {
          rateLimited.set(key, failures + 1);
          return json(response, 429, errorBody(protocol, 429, 'slow down (RATE429)'), { 'retry-after': '0' });
        }
      }
      answer(protocol, model, `reply: ${text}`, stream, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get rateLimitFailures() {
      return state.rateLimitFailures;
    },
    set rateLimitFailures(value: number) {
      state.rateLimitFailures = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
