import { describe, expect, it } from 'vitest';
import { ownAddressPerSignIn, signedInPerson } from '../../helpers/people.js';
import { type Client, createAction, eventually, useTestWorkspace } from '../../helpers/test-app.js';

// Rules fill review queues in the background (docs/review.md#rules): what matches, sampled, within
// seconds of being stored, never on the run's path; feedback that arrives later; a backfill.
const context = useTestWorkspace(ownAddressPerSignIn, { startJobs: true, ownJobQueue: true });

const questions = [{ key: 'good', label: 'Good?', type: 'boolean' }];

async function queue(client: Client): Promise<string> {
  return (await client.post('/v1/review_queues', { name: 'Watched', questions })).body.guid;
}

async function rule(client: Client, queueId: string, body: Record<string, unknown>) {
  const created = await client.post(`/v1/review_queues/${queueId}/rules`, body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function run(client: Client, action: string, text: string): Promise<string> {
  const answer = await client.post(`/v1/actions/${action}/prompt`, { input: { text } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data_guid;
}

/** The generations in a queue, once `count` of them are there. */
async function itemsOnce(
  client: Client,
  queueId: string,
  count: number,
  timeoutMs = 15_000,
): Promise<string[]> {
  return eventually(async () => {
    const listed = await client.get(`/v1/review_queues/${queueId}/items?limit=100`);
    const data = listed.body.data.map((item: { data_guid: string }) => item.data_guid);
    return data.length >= count ? data : undefined;
  }, timeoutMs);
}

describe('review rules', () => {
  it('adds an Action’s new production generations within seconds; drafts, evaluations and earlier ones never', async () => {
    const { client } = context;
    const action = (await createAction(client, { model: 'mock/echo', prompt: '{{text}}' })).guid;
    const before = await run(client, action, 'before the rule');
    const watched = await queue(client);
    const created = await rule(client, watched, { action, sample_rate: 1 });
    expect(created).toMatchObject({
      queue: watched,
      action,
      environment: null,
      sources: null,
      when: {},
      sample_rate: 1,
    });
    await client.post(`/v1/actions/${action}/prompt`, {
      input: { text: 'draft' },
      draft: { prompt: 'draft {{text}}' },
    });
    await client.post('/v1/data', { action, input: { text: 'e' }, output: 'e', source: 'evaluation' });
    const other = (await createAction(client, { model: 'mock/echo', prompt: '{{text}}' })).guid;
    await run(client, other, 'another action');
    const started = Date.now();
    const after = await run(client, action, 'after the rule');
    expect(await itemsOnce(client, watched, 1)).toEqual([after]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(before).not.toBe(after);
    // A later sweep adds nothing it has passed.
    const last = await run(client, action, 'one more');
    expect(await itemsOnce(client, watched, 2)).toEqual([after, last]);
  });

  it('makes a stratified sample: every failed call plus a share of the rest, each generation once', async () => {
    const { client } = context;
    const action = (await createAction(client, { model: 'mock/echo', prompt: '{{text}}' })).guid;
    const watched = await queue(client);
    await rule(client, watched, { action, when: { error: true }, sample_rate: 1 });
    await rule(client, watched, { action, sample_rate: 0.2 });
    const failed: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const logged = await client.post('/v1/data', {
        action,
        input: { text: `failed ${index}` },
        output: '',
        source: 'gateway',
        metadata: { error: 'upstream answered 500' },
      });
      expect(logged.status, JSON.stringify(logged.body)).toBe(201);
      failed.push(logged.body.guid);
    }
    let last = '';
    for (let index = 0; index < 50; index += 1) last = await run(client, action, `ok ${index}`);
    const lastAt = Date.parse((await client.get(`/v1/data/${last}`)).body.created_at);
    // Both sweeps are done: every failed call is in, and the sampling rule's mark has passed the last run.
    await eventually(async () => {
      const listed = await client.get(`/v1/review_queues/${watched}/items?limit=100`);
      const data = listed.body.data.map((item: { data_guid: string }) => item.data_guid);
      const rules = (await client.get(`/v1/review_queues/${watched}/rules`)).body;
      const sampling = rules.find((each: { when: object }) => Object.keys(each.when).length === 0);
      return failed.every((guid) => data.includes(guid)) && Date.parse(sampling.scanned_until) >= lastAt
        ? true
        : undefined;
    }, 15_000);
    const all = (await client.get(`/v1/review_queues/${watched}/items?limit=100`)).body.data.map(
      (item: { data_guid: string }) => item.data_guid,
    );
    expect(new Set(all).size).toBe(all.length);
    for (const guid of failed) expect(all).toContain(guid);
    const sampled = all.length - failed.filter((guid) => all.includes(guid)).length;
    // 20% of the 55 (the failed ones may be drawn again, but are one item each): about 11.
    expect(sampled).toBeGreaterThan(1);
    expect(sampled).toBeLessThan(25);
  });

  it('adds a generation when the feedback a rule waits for arrives later', async () => {
    const { client } = context;
    const action = (await createAction(client, { model: 'mock/echo', prompt: '{{text}}' })).guid;
    const watched = await queue(client);
    await rule(client, watched, {
      when: { feedback: { type: 'rating', value: 'negative' } },
      sample_rate: 1,
    });
    const liked = await run(client, action, 'liked');
    const disliked = await run(client, action, 'disliked');
    await client.post(`/v1/feedback/${liked}`, { type: 'rating', value: 'positive' });
    await client.post(`/v1/feedback/${disliked}`, { type: 'rating', value: 'negative' });
    expect(await itemsOnce(client, watched, 1)).toEqual([disliked]);
  });

  it('backfills the matching generations since a time, once, and stops when the rule is deleted', async () => {
    const { client } = context;
    const action = (await createAction(client, { model: 'mock/echo', prompt: '{{text}}' })).guid;
    const since = new Date(Date.now() - 1_000).toISOString();
    const earlier = [await run(client, action, 'one'), await run(client, action, 'two')];
    const watched = await queue(client);
    const created = await rule(client, watched, { action, sample_rate: 1, backfill_since: since });
    // A witness: a rule of the same pace on another queue that stays.
    const witness = await queue(client);
    await rule(client, witness, { action, sample_rate: 1 });
    expect(created.backfill_since).toBe(since);
    expect(await itemsOnce(client, watched, 2)).toEqual(earlier);
    expect((await client.delete(`/v1/review_queues/${watched}/rules/${created.guid}`)).body).toEqual({
      guid: created.guid,
      deleted: true,
    });
    expect((await client.get(`/v1/review_queues/${watched}/rules`)).body).toEqual([]);
    const later = await run(client, action, 'after the rule is gone');
    // Once the witness has it, a live rule would have too: the deleted one adds nothing.
    expect(await itemsOnce(client, witness, 1)).toEqual([later]);
    expect((await client.get(`/v1/review_queues/${watched}/items`)).body.total_count).toBe(2);
  });

  it('refuses a bad rule naming the field', async () => {
    const { client } = context;
    const watched = await queue(client);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ sample_rate: 0 }, 'sample_rate'],
      [{ sample_rate: 1.5 }, 'sample_rate'],
      [{ sample_rate: 1, when: { error: false } }, 'when.error'],
      [{ sample_rate: 1, backfill_since: 'yesterday' }, 'backfill_since'],
      [{ sample_rate: 1, colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const refused = await client.post(`/v1/review_queues/${watched}/rules`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(refused.body.error)).toContain(field);
    }
    const unknown = await client.post(`/v1/review_queues/${watched}/rules`, {
      sample_rate: 1,
      action: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
  });
});

describe('agreement with an evaluator', () => {
  it('compares each question with its evaluator’s monitor scores: majority for yes or no, Pearson’s r for a scale', async () => {
    const { client } = context;
    const action = (await createAction(client, { model: 'mock/echo', prompt: '{{text}}' })).guid;
    const startsWithYes = (
      await client.post('/v1/evaluators', { name: 'Yes', type: 'regex', config: { pattern: '^yes' } })
    ).body.guid;
    expect(
      (await client.post('/v1/monitors', { action, evaluators: [startsWithYes], sample_rate: 1 })).status,
    ).toBe(201);
    const texts = ['yes one', 'no two', 'yes three', 'no four'];
    const data: string[] = [];
    for (const text of texts) data.push(await run(client, action, text));
    // The monitor has scored them all.
    await eventually(async () => {
      for (const guid of data)
        if ((await client.get(`/v1/data/${guid}`)).body.scores?.[startsWithYes] === undefined)
          return undefined;
      return true;
    }, 20_000);
    const created = await client.post('/v1/review_queues', {
      name: 'Calibrate',
      reviews_per_item: 2,
      questions: [
        { key: 'yes', label: 'Says yes?', type: 'boolean', evaluator: startsWithYes },
        { key: 'sure', label: 'How sure?', type: 'scale', min: 1, max: 5, evaluator: startsWithYes },
      ],
    });
    const queueId = created.body.guid;
    await client.post(`/v1/review_queues/${queueId}/items`, { data });
    const [first, second] = [
      await signedInPerson(context.test, client.workspaceGuid, 'viewer'),
      await signedInPerson(context.test, client.workspaceGuid, 'viewer'),
    ];
    // Both reviewers say yes for 'yes one', no for 'no two', yes for 'yes three' (agreeing with the
    // score), and split on 'no four': a tie, which counts as disagreement.
    const answers: Record<string, [Record<string, unknown>, Record<string, unknown>]> = {
      'yes one': [
        { yes: true, sure: 5 },
        { yes: true, sure: 5 },
      ],
      'no two': [
        { yes: false, sure: 1 },
        { yes: false, sure: 2 },
      ],
      'yes three': [
        { yes: true, sure: 4 },
        { yes: true, sure: 5 },
      ],
      'no four': [
        { yes: true, sure: 2 },
        { yes: false, sure: 1 },
      ],
    };
    const items = (await client.get(`/v1/review_queues/${queueId}/items`)).body.data;
    for (const [index, item] of items.entries()) {
      const [a, b] = answers[texts[index]!]!;
      expect(
        (await first.client.post(`/v1/review_queues/${queueId}/items/${item.guid}/reviews`, { answers: a }))
          .status,
      ).toBe(201);
      expect(
        (await second.client.post(`/v1/review_queues/${queueId}/items/${item.guid}/reviews`, { answers: b }))
          .status,
      ).toBe(201);
    }
    const agreement = (await client.get(`/v1/review_queues/${queueId}/agreement`)).body.questions;
    expect(agreement.yes.evaluator).toEqual({ n: 4, agreement: 0.75 });
    // Scores 1, 0, 1, 0 against mean answers mapped to [0, 1]: 1, 0.125, 0.875, 0.125.
    const means = [1, 0.125, 0.875, 0.125];
    const scores = [1, 0, 1, 0];
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const [mx, my] = [mean(scores), mean(means)];
    const covariance = scores.reduce((sum, x, index) => sum + (x - mx) * (means[index]! - my), 0);
    const r =
      covariance /
      Math.sqrt(
        scores.reduce((sum, x) => sum + (x - mx) ** 2, 0) * means.reduce((sum, y) => sum + (y - my) ** 2, 0),
      );
    expect(agreement.sure.evaluator.n).toBe(4);
    expect(agreement.sure.evaluator.agreement).toBeCloseTo(r, 10);
  });
});
