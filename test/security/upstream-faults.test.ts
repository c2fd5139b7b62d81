import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completionBody, startScriptedUpstream } from '../helpers/chat-upstream.js';
import { createAction, useTestWorkspace } from '../helpers/test-app.js';

// A provider that rate-limits, fails, resets or hangs: retries stay bounded and the run ends within
// its deadline (`model_config.timeout`, retries included) with a clear status.

const context = useTestWorkspace({ LECTERN_OUTBOUND_ALLOW: '127.0.0.1' });

/** Requests per model name; the model name chooses how the upstream misbehaves. */
const attempts = new Map<string, number>();
let upstream: Awaited<ReturnType<typeof startScriptedUpstream>>;

beforeAll(async () => {
  upstream = await startScriptedUpstream((body, request, response) => {
    const model = String(body.model);
    attempts.set(model, (attempts.get(model) ?? 0) + 1);
    if (model.startsWith('reset')) return request.socket.destroy();
    if (model.startsWith('hang')) return; // never answers
    if (model.startsWith('fail')) {
      response.writeHead(503, { 'content-type': 'application/json' });
      return response.end(JSON.stringify({ error: { message: 'overloaded' } }));
    }
    if (model.startsWith('limited')) {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' });
      return response.end(JSON.stringify({ error: { message: 'slow down' } }));
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(completionBody(model, 'fine')));
  });
  await context.client.post('/v1/providers', {
    provider: 'openai-compatible',
    url: `${upstream.url}/v1`,
    nickname: 'flaky',
  });
});
afterAll(() => upstream.close());

async function run(model: string, modelConfig: Record<string, unknown>) {
  const action = await createAction(context.client, { model: `flaky/${model}`, model_config: modelConfig });
  const started = performance.now();
  const answer = await context.client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'x' } });
  return { answer, seconds: (performance.now() - started) / 1000, attempts: attempts.get(model) ?? 0 };
}

describe('upstream faults', () => {
  it('retries a reset connection and a 5xx a bounded number of times, then fails with 502', async () => {
    const reset = await run('reset-1', { num_retries: 2 });
    expect(reset.answer.status).toBe(502);
    expect(reset.attempts).toBe(3);
    const failing = await run('fail-1', { num_retries: 1 });
    expect(failing.answer.status).toBe(502);
    expect(failing.attempts).toBe(2);
    expect(failing.answer.body.message).toMatch(/503/);
  });

  it('ends a hanging upstream at the run deadline, retries included, with 504', async () => {
    const hung = await run('hang-1', { timeout: 1, num_retries: 5 });
    expect(hung.answer.status).toBe(504);
    expect(hung.answer.body.message).toMatch(/did not answer in time/);
    expect(hung.seconds).toBeLessThan(5);
    expect(hung.attempts).toBeGreaterThanOrEqual(1);
  });

  it('does not wait out a Retry-After past the deadline: the 429 is the answer', async () => {
    const limited = await run('limited-1', { timeout: 2, num_retries: 3 });
    expect(limited.answer.status).toBe(429);
    expect(limited.attempts).toBe(1);
    expect(limited.seconds).toBeLessThan(2);
  });
});
