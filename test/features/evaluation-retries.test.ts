import { afterAll, beforeAll, expect, it } from 'vitest';
import { completionBody, startScriptedUpstream } from '../helpers/chat-upstream.js';
import { createAction, eventually, useTestWorkspace } from '../helpers/test-app.js';

// An evaluation against a provider that rate-limits and one that keeps failing: a 429's Retry-After
// is waited out and the item succeeds; an item whose provider never recovers fails once its job's
// attempts run out, and the run goes on to SUCCESS with the item counted as failed.
const context = useTestWorkspace(
  { LECTERN_OUTBOUND_ALLOW: '127.0.0.1' },
  { startJobs: true, ownJobQueue: true },
);

/** When each item's requests arrived, by the item's text (its user message). */
const arrivals = new Map<string, number[]>();
let upstream: Awaited<ReturnType<typeof startScriptedUpstream>>;

beforeAll(async () => {
  upstream = await startScriptedUpstream((body, _request, response) => {
    const messages = body.messages as { content: string }[];
    const text = String(messages.at(-1)?.content);
    const seen = [...(arrivals.get(text) ?? []), performance.now()];
    arrivals.set(text, seen);
    if (String(body.model) === 'down') {
      response.writeHead(503, { 'content-type': 'application/json' });
      return response.end(JSON.stringify({ error: { message: 'overloaded' } }));
    }
    // The first request of each item is turned away for 300 ms.
    if (seen.length === 1) {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': '300' });
      return response.end(JSON.stringify({ error: { message: 'slow down' } }));
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(completionBody(String(body.model), `answer to ${text}`)));
  });
  await context.client.post('/v1/providers', {
    provider: 'openai-compatible',
    url: `${upstream.url}/v1`,
    nickname: 'flaky',
  });
});
afterAll(() => upstream.close());

async function evaluate(model: string, texts: string[]) {
  const { client } = context;
  const action = await createAction(client, {
    model: `flaky/${model}`,
    prompt: '{{text}}',
    model_config: { num_retries: model === 'down' ? 0 : 2 },
  });
  const dataset = (await client.post('/v1/datasets', { name: model })).body.guid;
  await client.post(`/v1/datasets/${dataset}/items`, { items: texts.map((text) => ({ input: { text } })) });
  const evaluator = (
    await client.post('/v1/evaluators', { name: 'Answers', type: 'contains', config: { value: 'answer' } })
  ).body.guid;
  const started = await client.post('/v1/evaluations', {
    action: action.guid,
    dataset,
    evaluators: [evaluator],
    concurrency: 2,
  });
  const done = await eventually(async () => {
    const answer = await client.get(`/v1/evaluations/${started.body.guid}`);
    return answer.body.status === 'SUCCESS' ? answer.body : undefined;
  }, 30_000);
  const results = (await client.get(`/v1/evaluations/${started.body.guid}/results`)).body.data;
  return { done, results, evaluator };
}

it('waits out a 429’s Retry-After and scores the item', async () => {
  const texts = ['limited one', 'limited two', 'limited three'];
  const { done, results, evaluator } = await evaluate('limited', texts);
  expect(done.progress).toEqual({ total: 3, done: 3, failed: 0 });
  expect(results.map((result: any) => result.output)).toEqual(texts.map((text) => `answer to ${text}`));
  expect(done.summary[evaluator]).toMatchObject({ mean: 1, n: 3 });
  for (const text of texts) {
    const [first, second] = arrivals.get(text)!;
    expect(arrivals.get(text)).toHaveLength(2);
    expect(second! - first!).toBeGreaterThanOrEqual(290);
  }
});

it('fails an item whose provider never recovers once its attempts run out, and the run still succeeds', async () => {
  const { done, results, evaluator } = await evaluate('down', ['down one']);
  expect(done.progress).toEqual({ total: 1, done: 1, failed: 1 });
  expect(done.summary[evaluator]).toMatchObject({ mean: null, n: 0 });
  expect(results[0]).toMatchObject({ status: 'failed', output: null, scores: { [evaluator]: null } });
  expect(results[0].error).toMatch(/503/);
  // The job's three attempts, one request each (the Action allows no retry of its own).
  expect(arrivals.get('down one')).toHaveLength(3);
});
