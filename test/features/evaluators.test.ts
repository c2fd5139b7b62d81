import { describe, expect, it } from 'vitest';
import { signedInPerson } from '../helpers/people.js';
import { createAction, newWorkspace, useTestWorkspace } from '../helpers/test-app.js';

// Evaluators: each type's settings checked when saved, and each type's score on one case
// (`POST /v1/evaluators/test`); a score that cannot be computed is null with its reason.
const context = useTestWorkspace();

async function score(type: string, config: unknown, scoringCase: Record<string, unknown>) {
  const answer = await context.client.post('/v1/evaluators/test', { type, config, ...scoringCase });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { score: number | null; error: string | null };
}

describe('evaluators', () => {
  it('creates, lists, changes and deletes an evaluator; its type is fixed', async () => {
    const created = await context.client.post('/v1/evaluators', {
      name: 'Mentions a refund',
      type: 'regex',
      config: { pattern: 'refund', flags: 'i' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      guid: expect.any(String),
      name: 'Mentions a refund',
      type: 'regex',
      config: { pattern: 'refund', flags: 'i' },
      needs_expected_output: false,
    });
    const { guid } = created.body;
    expect((await context.client.get('/v1/evaluators')).body.data.map((each: any) => each.guid)).toContain(
      guid,
    );
    const changed = await context.client.put(`/v1/evaluators/${guid}`, { config: { pattern: 'money back' } });
    expect(changed.body.config).toEqual({ pattern: 'money back' });
    expect((await context.client.put(`/v1/evaluators/${guid}`, { type: 'contains' })).status).toBe(400);
    expect(
      (await context.client.put(`/v1/evaluators/${guid}`, { config: { pattern: '(' } })).body.message,
    ).toMatch(/^config\.pattern: /);
    expect((await context.client.delete(`/v1/evaluators/${guid}`)).body).toEqual({ guid, deleted: true });
    expect((await context.client.get(`/v1/evaluators/${guid}`)).status).toBe(404);
  });

  it('checks each type’s settings, naming the field', async () => {
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ type: 'unknown_type' }, /body\.type: /],
      [{ type: 'regex' }, /^config\.pattern: /],
      [{ type: 'regex', config: { pattern: '[' } }, /^config\.pattern: .*Invalid regular expression/],
      [{ type: 'regex', config: { pattern: 'x', flags: 'g' } }, /^config\.flags: /],
      [{ type: 'json_valid', config: { schema: { type: 'no such type' } } }, /^config\.schema: /],
      [{ type: 'latency', config: {} }, /^config\.max_ms: /],
      [{ type: 'cost', config: { max_usd: -1 } }, /^config\.max_usd: /],
      [{ type: 'exact_match', config: { surprise: true } }, /^config: .*surprise/],
    ];
    for (const [body, message] of refusals) {
      const refused = await context.client.post('/v1/evaluators', { name: 'x', ...body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.message, JSON.stringify(body)).toMatch(message);
    }
  });

  it('scores exact_match, contains and regex', async () => {
    expect(await score('exact_match', {}, { output: ' Yes. ', expected_output: 'Yes.' })).toEqual({
      score: 1,
      error: null,
    });
    expect((await score('exact_match', {}, { output: 'yes.', expected_output: 'Yes.' })).score).toBe(0);
    expect(
      (await score('exact_match', { case_sensitive: false }, { output: 'yes.', expected_output: 'Yes.' }))
        .score,
    ).toBe(1);
    expect(await score('exact_match', {}, { output: 'Yes.' })).toEqual({
      score: null,
      error: 'the item has no expected_output to compare with',
    });
    expect((await score('contains', { value: 'refund' }, { output: 'A refund is due.' })).score).toBe(1);
    expect((await score('contains', {}, { output: 'A refund is due.', expected_output: 'due' })).score).toBe(
      1,
    );
    expect((await score('contains', {}, { output: 'A refund is due.' })).score).toBeNull();
    expect((await score('regex', { pattern: '^\\d{3}-\\d{4}$' }, { output: '555-1234' })).score).toBe(1);
    expect((await score('regex', { pattern: 'REFUND', flags: 'i' }, { output: 'a refund' })).score).toBe(1);
  });

  it('gives up a pattern that backtracks for ever, with a null score, and keeps answering', async () => {
    const started = performance.now();
    const stuck = await score('regex', { pattern: '^(a+)+$' }, { output: `${'a'.repeat(40)}b` });
    expect(stuck).toEqual({ score: null, error: 'the check took longer than 100 ms' });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await context.client.get('/v1/evaluators')).status).toBe(200);
  });

  it('refuses a schema that takes seconds to compile, on a check thread, never the request thread', async () => {
    // 1,300 properties, each a choice with a pattern: under 100,000 characters, seconds for Ajv.
    const properties = Object.fromEntries(
      Array.from({ length: 1_300 }, (_, index) => [
        `p${index}`,
        { anyOf: [{ type: 'string', pattern: '^a+$' }, { type: 'number' }] },
      ]),
    );
    const schema = { type: 'object', properties };
    expect(JSON.stringify(schema).length).toBeLessThan(100_000);
    const refused = await context.client.post('/v1/evaluators', {
      name: 'slow to compile',
      type: 'json_valid',
      config: { schema },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('config.schema: compiling took longer than 1000 ms');
    expect((await context.client.get('/v1/evaluators')).status).toBe(200);
  });

  it('gives each workspace its turn on the check threads: another’s backtracking voids none of its scores', async () => {
    const { test } = context;
    const other = await newWorkspace(test);
    const stuckPattern = { pattern: '^(a+)+$' };
    // A's backtracking checks are queued first, B's after them; B's are still scored, every one.
    const stuck = Array.from({ length: 12 }, () =>
      other.post('/v1/evaluators/test', {
        type: 'regex',
        config: stuckPattern,
        output: `${'a'.repeat(40)}b`,
      }),
    );
    const fine = Array.from({ length: 30 }, (_, index) =>
      score('regex', { pattern: '^ok \\d+$' }, { output: `ok ${index}` }),
    );
    const scores = await Promise.all(fine);
    expect(scores.every((each) => each.score === 1 && each.error === null)).toBe(true);
    const voided = await Promise.all(stuck);
    expect(voided.every((each) => each.body.error === 'the check took longer than 100 ms')).toBe(true);
  }, 60_000);

  it('scores json_valid with and without a JSON Schema', async () => {
    expect((await score('json_valid', {}, { output: '{"a": 1}' })).score).toBe(1);
    expect((await score('json_valid', {}, { output: 'not json' })).score).toBe(0);
    const schema = {
      type: 'object',
      required: ['answer'],
      properties: { answer: { type: 'string' }, confidence: { type: 'number', minimum: 0, maximum: 1 } },
    };
    expect(
      (await score('json_valid', { schema }, { output: '{"answer": "yes", "confidence": 0.9}' })).score,
    ).toBe(1);
    expect(
      (await score('json_valid', { schema }, { output: '{"answer": "yes", "confidence": 2}' })).score,
    ).toBe(0);
    expect((await score('json_valid', { schema }, { output: '{"confidence": 0.5}' })).score).toBe(0);
  });

  it('scores latency and cost against their bounds, and null when the run did not say', async () => {
    expect((await score('latency', { max_ms: 500 }, { output: 'x', latency_ms: 320 })).score).toBe(1);
    expect((await score('latency', { max_ms: 500 }, { output: 'x', latency_ms: 501 })).score).toBe(0);
    expect((await score('latency', { max_ms: 500 }, { output: 'x' })).score).toBeNull();
    expect((await score('cost', { max_usd: 0.01 }, { output: 'x', cost_usd: 0.002 })).score).toBe(1);
    expect((await score('cost', { max_usd: 0.01 }, { output: 'x', cost_usd: 0.02 })).score).toBe(0);
  });

  it('scores similarity with the workspace’s embedder: close texts above unrelated ones', async () => {
    const same = await score(
      'similarity',
      {},
      { output: 'The refund arrives in five days.', expected_output: 'The refund arrives in five days.' },
    );
    expect(same.score).toBeCloseTo(1, 3);
    const close = await score(
      'similarity',
      {},
      {
        output: 'Your refund will arrive within five days.',
        expected_output: 'The refund arrives in five days.',
      },
    );
    const unrelated = await score(
      'similarity',
      {},
      {
        output: 'Penguins live in the southern hemisphere.',
        expected_output: 'The refund arrives in five days.',
      },
    );
    expect(close.score).toBeGreaterThan(unrelated.score!);
    expect(unrelated.score).toBeGreaterThanOrEqual(0);
    expect(await score('similarity', {}, { output: 'x' })).toMatchObject({ score: null });
  });

  it('scores llm_judge with a judge Action run as an evaluation, left out of the Dashboard', async () => {
    // mock/echo replies with its prompt: a judge whose prompt is the output answers the output.
    const judge = await createAction(context.client, { name: 'Judge', prompt: '{{output}}' });
    const config = { action: judge.guid };
    expect(await score('llm_judge', config, { output: '0.8' })).toEqual({ score: 0.8, error: null });
    expect(
      (await score('llm_judge', { ...config, min: 1, max: 5 }, { output: '{"score": 4, "reason": "fine"}' }))
        .score,
    ).toBe(0.75);
    expect((await score('llm_judge', config, { output: 'great answer' })).error).toMatch(
      /^the judge answered neither a number nor a JSON object with a numeric score/,
    );
    expect((await score('llm_judge', { ...config, max: 5 }, { output: '7' })).error).toBe(
      "the judge's score 7 is outside [0, 5]",
    );
    // The judge sees the item's input as text, the output and the expected output.
    await score('llm_judge', config, { input: { question: 'Refund?' }, output: '1', expected_output: 'Yes' });
    const judged = await context.client.get(`/v1/data?action=${judge.guid}&limit=1`);
    expect(judged.body.data[0]).toMatchObject({
      source: 'evaluation',
      input: { input: '{"question":"Refund?"}', output: '1', expected_output: 'Yes' },
    });
    expect((await context.client.get(`/v1/statistics?action=${judge.guid}`)).body.actions).toEqual([]);

    const created = await context.client.post('/v1/evaluators', {
      name: 'Judged',
      type: 'llm_judge',
      config,
    });
    expect(created.status).toBe(201);
    expect(created.body.needs_expected_output).toBe(false);
    const other = await newWorkspace(context.test);
    const foreignJudge = await createAction(other, { name: 'Their judge', prompt: '{{output}}' });
    const refused = await context.client.post('/v1/evaluators', {
      name: 'Judged elsewhere',
      type: 'llm_judge',
      config: { action: foreignJudge.guid },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(`config.action: Action ${foreignJudge.guid} not found`);
    expect(
      (
        await context.client.post('/v1/evaluators', {
          name: 'x',
          type: 'llm_judge',
          config: { action: judge.guid, min: 2, max: 1 },
        })
      ).body.message,
    ).toMatch(/^config\.max: must be above min/);
  });

  it('lets a viewer read evaluators only; another workspace’s evaluator is not found', async () => {
    const created = await context.client.post('/v1/evaluators', { name: 'Is JSON', type: 'json_valid' });
    const { client: viewer } = await signedInPerson(context.test, context.client.workspaceGuid, 'viewer');
    expect((await viewer.get(`/v1/evaluators/${created.body.guid}`)).status).toBe(200);
    expect((await viewer.post('/v1/evaluators', { name: 'x', type: 'json_valid' })).status).toBe(403);
    expect((await viewer.post('/v1/evaluators/test', { type: 'json_valid', output: '{}' })).status).toBe(403);
    const other = await newWorkspace(context.test);
    expect((await other.get(`/v1/evaluators/${created.body.guid}`)).status).toBe(404);
    expect((await other.put(`/v1/evaluators/${created.body.guid}`, { name: 'mine' })).status).toBe(404);
    expect((await other.delete(`/v1/evaluators/${created.body.guid}`)).status).toBe(404);
  });
});
