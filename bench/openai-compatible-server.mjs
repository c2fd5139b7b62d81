import { createServer } from 'node:http';
import { parentPort } from 'node:worker_threads';

/**
 * A minimal OpenAI-compatible chat-completions server answering at once: the upstream both sides of
 * a benchmark call. Runs in a worker thread so it does not share the event loop with the client.
 */
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    const parsed = JSON.parse(body || '{}');
    const text = String(parsed.messages?.at(-1)?.content ?? '');
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
