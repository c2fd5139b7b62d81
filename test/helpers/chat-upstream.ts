import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the upstream received: the gateway must pass the body through and strip its own headers. */
export type UpstreamCall = {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  aborted: boolean;
};

export type ChatUpstream = { url: string; calls: UpstreamCall[]; close(): Promise<void> };

const words = (text: string) => text.split(/(?<= )/);

const embeddingDimensions = 512;
const wordVectors = new Map<string, Float32Array>();

/** A fixed pseudo-random vector per word (xorshift seeded by the word). */
function wordVector(word: string): Float32Array {
  let vector = wordVectors.get(word);
  if (!vector) {
    vector = new Float32Array(embeddingDimensions);
    let seed = 2166136261;
    for (const character of word) seed = Math.imul(seed ^ character.charCodeAt(0), 16777619);
    for (let index = 0; index < embeddingDimensions; index++) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      vector[index] = (seed >>> 0) / 4294967296 - 0.5;
    }
    wordVectors.set(word, vector);
  }
  return vector;
}

/** A bag-of-words random projection: texts sharing words get similar vectors, as with a real model. */
function embed(text: string): number[] {
  const sum = new Float32Array(embeddingDimensions);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? ['empty']) {
    const vector = wordVector(word);
    for (let index = 0; index < embeddingDimensions; index++) sum[index]! += vector[index]!;
  }
  return Array.from(sum);
}

/**
 * The one local OpenAI-compatible provider of the tests and benches (the benches run it in a worker
 * thread: bench/upstream-worker.mjs). Chat replies are "echo: <last user text>"; the model name
 * chooses a behaviour: `fail-400`, `fail-429`, `fail-500` answer errors, `slow` streams one word every
 * 100 ms (for disconnects), any other streams every chunk at once. `stream_options.include_usage` adds
 * a usage chunk, as OpenAI does. Embeddings are `embed` above; `/v1/models` lists one model.
 * `recordCalls: false` keeps no call (a benchmark sends too many to keep).
 */
export async function startChatUpstream(options: { recordCalls?: boolean } = {}): Promise<ChatUpstream> {
  const calls: UpstreamCall[] = [];
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const body = raw ? JSON.parse(raw) : {};
      const call: UpstreamCall = { path: request.url!, headers: request.headers, body, aborted: false };
      if (options.recordCalls !== false) calls.push(call);
      response.on('close', () => {
        if (!response.writableFinished) call.aborted = true;
      });
      if (request.url === '/v1/models') {
        response.setHeader('content-type', 'application/json');
        return response.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-test', object: 'model' }] }));
      }
      if (request.url?.endsWith('/embeddings')) {
        const inputs: unknown[] = Array.isArray(body.input) ? body.input : [body.input];
        response.setHeader('content-type', 'application/json');
        return response.end(
          JSON.stringify({
            object: 'list',
            data: inputs.map((text, index) => ({
              object: 'embedding',
              index,
              embedding: embed(String(text)),
            })),
            model: body.model,
            usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
          }),
        );
      }
      const model = String(body.model);
      const failure = /^fail-(\d+)$/.exec(model);
      if (failure) {
        const status = Number(failure[1]);
        response.writeHead(status, {
          'content-type': 'application/json',
          'x-request-id': `req-${status}`,
          ...(status === 429 && { 'retry-after': '7' }),
        });
        return response.end(
          JSON.stringify({
            error: { message: `upstream says ${status}`, type: 'upstream_error', code: `code_${status}` },
          }),
        );
      }
      const last = [...(body.messages ?? [])]
        .reverse()
        .find((message: { role: string }) => message.role === 'user');
      const reply = `echo: ${typeof last?.content === 'string' ? last.content : ''}`;
      const usage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };
      if (!body.stream) {
        response.writeHead(200, {
          'content-type': 'application/json',
          'x-request-id': 'req-ok',
          connection: 'keep-alive',
        });
        return response.end(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 1,
            model,
            choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
            usage,
          }),
        );
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const parts = [
        chunk({ role: 'assistant', content: '' }),
        ...words(reply).map((word) => chunk({ content: word })),
        chunk({}, 'stop'),
      ];
      if ((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage) {
        parts.push(
          `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created: 1, model, choices: [], usage })}\n\n`,
        );
      }
      parts.push('data: [DONE]\n\n');
      if (model !== 'slow') return response.end(parts.join(''));
      let index = 0;
      const next = () => {
        if (response.destroyed) return;
        if (index === parts.length) return response.end();
        response.write(parts[index++]);
        setTimeout(next, 100);
      };
      next();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A chat-completions answer in OpenAI's wire format, with a reply and token usage. */
export function completionBody(model: string, content: string) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  };
}

/**
 * A local upstream whose every answer the test writes: `handle` gets the parsed JSON body of each
 * request (the faults and odd answers of a real provider).
 */
export async function startScriptedUpstream(
  handle: (body: Record<string, unknown>, request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => handle(raw ? JSON.parse(raw) : {}, request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
