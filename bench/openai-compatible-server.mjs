import { createServer } from 'node:http';
import { parentPort } from 'node:worker_threads';

/**
 * A minimal OpenAI-compatible server answering at once: the upstream both sides of a benchmark call.
 * Chat completions echo (streamed as SSE with `stream: true`); embeddings are a bag-of-words random projection (each word a fixed random
 * 512-dimensional vector), so similar texts get similar vectors, as with a real model. Runs in a
 * worker thread so it does not share the event loop with the client.
 */
const dimensions = 512;
const wordVectors = new Map();

function wordVector(word) {
  let vector = wordVectors.get(word);
  if (!vector) {
    vector = new Float32Array(dimensions);
    // xorshift seeded by the word: the same word always gets the same vector.
    let seed = 2166136261;
    for (const character of word) seed = Math.imul(seed ^ character.charCodeAt(0), 16777619);
    for (let index = 0; index < dimensions; index++) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      vector[index] = (seed >>> 0) / 4294967296 - 0.5;
    }
    wordVectors.set(word, vector);
  }
  return vector;
}

function embed(text) {
  const sum = new Float32Array(dimensions);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? ['empty']) {
    const vector = wordVector(word);
    for (let index = 0; index < dimensions; index++) sum[index] += vector[index];
  }
  return Array.from(sum);
}

const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    const parsed = JSON.parse(body || '{}');
    if (request.url?.endsWith('/embeddings')) {
      const inputs = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          object: 'list',
          data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: embed(String(text)) })),
          model: parsed.model,
          usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
        }),
      );
      return;
    }
    const text = String(parsed.messages?.at(-1)?.content ?? '');
    if (parsed.stream) {
      // Every chunk at once: a benchmark measures what is added on top, not a model's pace.
      const chunk = (delta, finish = null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: parsed.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const word of `echo: ${text}`.split(/(?<= )/)) response.write(chunk({ content: word }));
      response.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: parsed.model,
        choices: [
          { index: 0, message: { role: 'assistant', content: `echo: ${text}` }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
      }),
    );
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') parentPort?.postMessage(address.port);
});
