import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { reviewItems } from '../../../src/features/quality/review-queues/tables.js';
import { ownAddressPerSignIn, signedInPerson } from '../../helpers/people.js';
import {
  type Client,
  createAction,
  eventually,
  newWorkspace,
  useTestWorkspace,
} from '../../helpers/test-app.js';

// Review queues (docs/review.md): questions, items, leases that never collide, blind reviews,
// corrections into datasets, and the reviewer role, all through the HTTP API.
const context = useTestWorkspace(ownAddressPerSignIn);

const questions = [
  { key: 'correct', label: 'Is the answer correct?', type: 'boolean' },
  { key: 'tone', label: 'Tone', type: 'scale', min: 1, max: 5 },
  { key: 'topic', label: 'Topic', type: 'choice', options: ['billing', 'shipping', 'other'] },
  { key: 'notes', label: 'Notes', type: 'text' },
];

async function generationsOf(client: Client, count: number): Promise<string[]> {
  const action = await createAction(client, { model: 'mock/echo', prompt: '{{text}}' });
  const made: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const run = await client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { text: `question ${index}` },
    });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    made.push(run.body.data_guid);
  }
  return made;
}

async function queueWith(client: Client, fields: Record<string, unknown>, data: string[] = []) {
  const created = await client.post('/v1/review_queues', { name: 'Support answers', questions, ...fields });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (data.length > 0)
    expect((await client.post(`/v1/review_queues/${created.body.guid}/items`, { data })).status).toBe(201);
  return created.body.guid as string;
}

const person = (role: 'reviewer' | 'viewer' | 'developer' | 'admin') =>
  signedInPerson(context.test, context.client.workspaceGuid, role);

const answers = { correct: true, tone: 4, topic: 'billing' };

describe('review queues', () => {
  it('creates a queue with its defaults, and refuses bad questions naming the field, storing nothing', async () => {
    const { client } = context;
    const created = await client.post('/v1/review_queues', { name: 'Q', questions });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Q',
      description: '',
      reviews_per_item: 1,
      blind: true,
      assignees: [],
      dataset: null,
      lease_seconds: 600,
      counts: { pending: 0, in_review: 0, completed: 0 },
    });
    expect(created.body.questions).toEqual([
      { key: 'correct', label: 'Is the answer correct?', type: 'boolean', required: true },
      { key: 'tone', label: 'Tone', type: 'scale', min: 1, max: 5, required: true },
      {
        key: 'topic',
        label: 'Topic',
        type: 'choice',
        options: ['billing', 'shipping', 'other'],
        required: true,
      },
      { key: 'notes', label: 'Notes', type: 'text', required: false },
    ]);
    const before = (await client.get('/v1/review_queues')).body.total_count;
    const refusals: Array<[unknown, string]> = [
      [[questions[0], questions[0]], 'questions.1.key'],
      [[{ key: 'a', label: 'A', type: 'stars' }], 'questions.0.type'],
      [[{ key: 'a', label: 'A', type: 'scale', min: 5, max: 5 }], 'questions.0.max'],
      [[{ key: 'a', label: 'A', type: 'choice', options: ['only'] }], 'questions.0.options'],
      [[{ key: 'A B', label: 'A', type: 'boolean' }], 'questions.0.key'],
      [[{ key: 'a', label: 'A', type: 'boolean', colour: 'red' }], 'questions.0'],
    ];
    for (const [bad, field] of refusals) {
      const refused = await client.post('/v1/review_queues', { name: 'Bad', questions: bad });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body.error.field ?? refused.body.error.message).toContain(field);
    }
    expect(
      (await client.post('/v1/review_queues', { name: 'Bad', questions, reviews_per_item: 6 })).body.error
        .field,
    ).toBe('reviews_per_item');
    expect(
      (await client.post('/v1/review_queues', { name: 'Bad', questions, lease_seconds: 5 })).body.error.field,
    ).toBe('lease_seconds');
    expect((await client.get('/v1/review_queues')).body.total_count).toBe(before);
  });

  it('adds each generation once, refuses another workspace’s, and lists items by status', async () => {
    const { client } = context;
    const data = await generationsOf(client, 3);
    const queue = await queueWith(client, {});
    expect((await client.post(`/v1/review_queues/${queue}/items`, { data })).body).toEqual({ added: 3 });
    expect(
      (await client.post(`/v1/review_queues/${queue}/items`, { data: [data[0], data[0]] })).body,
    ).toEqual({ added: 0 });
    const other = await newWorkspace(context.test);
    const foreign = await generationsOf(other, 1);
    const refused = await client.post(`/v1/review_queues/${queue}/items`, { data: [data[1], foreign[0]] });
    expect(refused.status).toBe(404);
    const listed = await client.get(`/v1/review_queues/${queue}/items?status=pending`);
    expect(listed.body.total_count).toBe(3);
    expect(listed.body.data[0]).toMatchObject({
      data_guid: data[0],
      status: 'pending',
      review_count: 0,
      completed_at: null,
    });
    // Another workspace's key does not find the queue.
    expect((await other.get(`/v1/review_queues/${queue}`)).status).toBe(404);
  });

  it('leases an item to no more people than it still needs, never twice to one person, and completes it', async () => {
    const { client } = context;
    const [generation] = await generationsOf(client, 1);
    const queue = await queueWith(client, { reviews_per_item: 2 }, [generation!]);
    const [first, second, third] = [
      await person('viewer'),
      await person('viewer'),
      await person('developer'),
    ];
    const leased = await first.client.post(`/v1/review_queues/${queue}/next`);
    expect(leased.status).toBe(200);
    expect(leased.body.item).toMatchObject({ data_guid: generation, status: 'in_review' });
    expect(leased.body.generation).toMatchObject({ guid: generation, output: 'question 0', feedback: [] });
    expect(new Date(leased.body.lease_expires_at).getTime()).toBeGreaterThan(Date.now() + 500_000);
    // Asking again returns the same lease.
    expect((await first.client.post(`/v1/review_queues/${queue}/next`)).body.item.guid).toBe(
      leased.body.item.guid,
    );
    expect((await second.client.post(`/v1/review_queues/${queue}/next`)).status).toBe(200);
    // Both reviews it needs are leased: nothing for a third person, whose lease-less review is refused.
    expect((await third.client.post(`/v1/review_queues/${queue}/next`)).status).toBe(204);
    const item = leased.body.item.guid;
    const lateReview = await third.client.post(`/v1/review_queues/${queue}/items/${item}/reviews`, {
      answers,
    });
    expect(lateReview.status).toBe(409);

    const wrong = await first.client.post(`/v1/review_queues/${queue}/items/${item}/reviews`, {
      answers: { ...answers, tone: 9 },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.field).toBe('answers.tone');
    const missing = await first.client.post(`/v1/review_queues/${queue}/items/${item}/reviews`, {
      answers: { correct: true, tone: 3 },
    });
    expect(missing.body.error.field).toBe('answers.topic');
    const reviewed = await first.client.post(`/v1/review_queues/${queue}/items/${item}/reviews`, {
      answers,
      comment: 'fine',
    });
    expect(reviewed.status, JSON.stringify(reviewed.body)).toBe(201);
    expect(reviewed.body).toMatchObject({
      item,
      reviewer: first.person.id,
      answers,
      correction: null,
      comment: 'fine',
    });
    expect(
      (await first.client.post(`/v1/review_queues/${queue}/items/${item}/reviews`, { answers })).status,
    ).toBe(409);
    // The reviewer is done with it: nothing more for them.
    expect((await first.client.post(`/v1/review_queues/${queue}/next`)).status).toBe(204);

    // Blind: the second reviewer sees no other review until they submit theirs; an admin always does.
    expect((await second.client.get(`/v1/review_queues/${queue}/items/${item}`)).body.reviews).toEqual([]);
    const admin = await person('admin');
    expect((await admin.client.get(`/v1/review_queues/${queue}/items/${item}`)).body.reviews).toHaveLength(1);
    await second.client.post(`/v1/review_queues/${queue}/items/${item}/reviews`, {
      answers: { correct: false, tone: 2, topic: 'other' },
      correction: 'The refund takes 5 days.',
    });
    const done = await second.client.get(`/v1/review_queues/${queue}/items/${item}`);
    expect(done.body).toMatchObject({ status: 'completed', review_count: 2 });
    expect(done.body.reviews).toHaveLength(2);
    expect(
      (await third.client.post(`/v1/review_queues/${queue}/items/${item}/reviews`, { answers })).status,
    ).toBe(409);
    expect((await client.get(`/v1/review_queues/${queue}`)).body.counts).toEqual({
      pending: 0,
      in_review: 0,
      completed: 1,
    });
    const progress = await client.get(`/v1/review_queues/${queue}/progress`);
    expect(progress.body.reviewers).toEqual(
      expect.arrayContaining([
        { user: first.person.id, reviews: 1, leased: 0 },
        { user: second.person.id, reviews: 1, leased: 0 },
      ]),
    );
  });

  it('returns an expired lease to the queue, and a released one goes to the back of its reviewer’s line', async () => {
    const { client } = context;
    const data = await generationsOf(client, 2);
    const queue = await queueWith(client, {}, data);
    const [first, second] = [await person('viewer'), await person('viewer')];
    const leased = (await first.client.post(`/v1/review_queues/${queue}/next`)).body.item.guid;
    expect((await second.client.post(`/v1/review_queues/${queue}/next`)).body.item.guid).not.toBe(leased);
    // The first lease lapses (its time is moved into the past): the item is free again.
    await context.test.platform.database.database.execute(
      sql`UPDATE ${reviewItems} SET leases = jsonb_build_array(jsonb_build_object('reviewer', ${first.person.id}::text, 'expires_at', '2000-01-01T00:00:00.000Z')) WHERE id = ${leased}`,
    );
    const third = await person('viewer');
    expect((await third.client.post(`/v1/review_queues/${queue}/next`)).body.item.guid).toBe(leased);
    // Releasing (the console's skip) lets the next `next` offer another item first.
    expect((await third.client.post(`/v1/review_queues/${queue}/items/${leased}/release`)).body).toEqual({
      status: 'success',
    });
    expect((await third.client.post(`/v1/review_queues/${queue}/items/${leased}/release`)).status).toBe(409);
    const secondItem = (await second.client.get(`/v1/review_queues/${queue}/items`)).body.data.find(
      (each: { guid: string }) => each.guid !== leased,
    ).guid;
    await second.client.post(`/v1/review_queues/${queue}/items/${secondItem}/reviews`, { answers });
    expect((await third.client.post(`/v1/review_queues/${queue}/next`)).body.item.guid).toBe(leased);
  });

  it('never leases an item beyond its reviews when many people ask at once', async () => {
    const { client } = context;
    const data = await generationsOf(client, 4);
    const queue = await queueWith(client, { reviews_per_item: 3 }, data);
    const people = await Promise.all(Array.from({ length: 8 }, () => person('viewer')));
    const answered = await Promise.all(
      people.map((each) => each.client.post(`/v1/review_queues/${queue}/next`)),
    );
    const byItem = new Map<string, number>();
    for (const answer of answered)
      if (answer.status === 200)
        byItem.set(answer.body.item.guid, (byItem.get(answer.body.item.guid) ?? 0) + 1);
    expect([...byItem.values()].every((count) => count <= 3)).toBe(true);
    expect(answered.filter((answer) => answer.status === 200)).toHaveLength(8);
  });

  it('turns a reviewed item into a dataset item with provenance, by hand and when it completes', async () => {
    const { client } = context;
    const data = await generationsOf(client, 2);
    const dataset = (await client.post('/v1/datasets', { name: 'Reviewed' })).body.guid;
    const queue = await queueWith(client, { dataset }, data);
    const reviewer = await person('viewer');
    const first = (await reviewer.client.post(`/v1/review_queues/${queue}/next`)).body.item.guid;
    await reviewer.client.post(`/v1/review_queues/${queue}/items/${first}/reviews`, {
      answers: { correct: false, tone: 1, topic: 'billing' },
      correction: 'Corrected answer',
    });
    const items = (await client.get(`/v1/datasets/${dataset}/items`)).body;
    expect(items.data).toHaveLength(1);
    expect(items.data[0]).toMatchObject({
      input: { text: 'question 0' },
      expected_output: 'Corrected answer',
      metadata: {
        review_queue: queue,
        review_item: first,
        data_guid: data[0],
        reviewers: [reviewer.person.id],
      },
    });
    // By hand: the generation's output when no review corrected it, or what is given.
    const second = (await reviewer.client.post(`/v1/review_queues/${queue}/next`)).body.item.guid;
    await reviewer.client.post(`/v1/review_queues/${queue}/items/${second}/reviews`, { answers });
    // No correction, so no automatic addition: the dataset is still at the version the first made.
    const version = (await client.get(`/v1/datasets/${dataset}`)).body.version;
    const added = await client.post(`/v1/review_queues/${queue}/items/${second}/to_dataset`, {});
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ dataset, version: version + 1 });
    const other = (await client.post('/v1/datasets', { name: 'Elsewhere' })).body.guid;
    const given = await client.post(`/v1/review_queues/${queue}/items/${second}/to_dataset`, {
      dataset: other,
      expected_output: 'Given',
    });
    expect(given.body.dataset).toBe(other);
    const elsewhere = (await client.get(`/v1/datasets/${other}/items`)).body.data;
    expect(elsewhere).toEqual([expect.objectContaining({ guid: given.body.item, expected_output: 'Given' })]);
    // A reviewer may not add to datasets.
    expect(
      (await reviewer.client.post(`/v1/review_queues/${queue}/items/${second}/to_dataset`, {})).status,
    ).toBe(403);
  });

  it('shows a reviewer only the queues that name them, and nothing else of the workspace', async () => {
    const { client } = context;
    const data = await generationsOf(client, 1);
    const reviewer = await person('reviewer');
    const theirs = await queueWith(client, { assignees: [reviewer.person.id] }, data);
    const open = await queueWith(client, {}, data);
    const listed = await reviewer.client.get('/v1/review_queues');
    expect(listed.body.data.map((queue: { guid: string }) => queue.guid)).toEqual([theirs]);
    expect((await reviewer.client.get(`/v1/review_queues/${open}`)).status).toBe(403);
    expect((await reviewer.client.post(`/v1/review_queues/${open}/next`)).status).toBe(403);
    const leased = await reviewer.client.post(`/v1/review_queues/${theirs}/next`);
    expect(leased.status).toBe(200);
    expect(leased.body.generation.guid).toBe(data[0]);
    expect(
      (
        await reviewer.client.post(`/v1/review_queues/${theirs}/items/${leased.body.item.guid}/reviews`, {
          answers,
        })
      ).status,
    ).toBe(201);
    for (const path of [
      '/v1/data',
      '/v1/actions',
      '/v1/traces',
      `/v1/data/${data[0]}`,
      `/v1/review_queues/${theirs}/agreement`,
    ])
      expect((await reviewer.client.get(path)).status, path).toBe(403);
    expect((await reviewer.client.get('/v1/me')).body.role).toBe('reviewer');
    // A viewer not named by a queue with assignees reads it but does not review it.
    const viewer = await person('viewer');
    expect((await viewer.client.get(`/v1/review_queues/${theirs}`)).status).toBe(200);
    expect((await viewer.client.post(`/v1/review_queues/${theirs}/next`)).status).toBe(403);
    // Assignees are members who may review.
    const stranger = await newWorkspace(context.test);
    const refused = await client.post('/v1/review_queues', {
      name: 'X',
      questions,
      assignees: [stranger.workspaceGuid],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.field).toBe('assignees.0');
    // A key that no person made cannot review.
    expect((await client.post(`/v1/review_queues/${open}/next`)).status).toBe(403);
  });

  it('reports agreement per question: percent, Fleiss’ kappa and Krippendorff’s alpha', async () => {
    const { client } = context;
    const data = await generationsOf(client, 3);
    const queue = await queueWith(client, { reviews_per_item: 2, blind: false }, data);
    const [first, second] = [await person('viewer'), await person('viewer')];
    const given = [
      [
        { correct: true, tone: 5, topic: 'billing' },
        { correct: true, tone: 4, topic: 'billing' },
      ],
      [
        { correct: false, tone: 1, topic: 'other' },
        { correct: false, tone: 2, topic: 'other' },
      ],
      [
        { correct: true, tone: 3, topic: 'shipping' },
        { correct: false, tone: 3, topic: 'billing' },
      ],
    ];
    for (const [index, [a, b]] of given.entries()) {
      const item = (await client.get(`/v1/review_queues/${queue}/items`)).body.data[index].guid;
      await first.client.post(`/v1/review_queues/${queue}/items/${item}/reviews`, { answers: a });
      await second.client.post(`/v1/review_queues/${queue}/items/${item}/reviews`, { answers: b });
    }
    const agreement = (await client.get(`/v1/review_queues/${queue}/agreement`)).body.questions;
    expect(Object.keys(agreement).sort()).toEqual(['correct', 'tone', 'topic']);
    expect(agreement.correct.items).toBe(3);
    expect(agreement.correct.percent_agreement).toBeCloseTo(2 / 3, 10);
    // Two raters, answers TT, FF, TF: P̄ = 2/3, p(T) = p(F) = 1/2, κ = (2/3 − 1/2) / (1/2) = 1/3.
    expect(agreement.correct.kappa).toBeCloseTo(1 / 3, 10);
    expect(agreement.correct.alpha).toBeNull();
    expect(agreement.tone.kappa).toBeNull();
    // Interval α over 5·4, 1·2, 3·3: D_o = (2 + 2 + 0) / 6 = 2/3; D_e = 2(6·64 − 18²) / 30 = 4; α = 1 − (2/3) / 4.
    expect(agreement.tone.alpha).toBeCloseTo(1 - 2 / 3 / 4, 10);
  });

  it('counts only the items two people answered, and kappa only over those with every review', async () => {
    const { client } = context;
    const data = await generationsOf(client, 4);
    const queue = await queueWith(client, { reviews_per_item: 3, blind: false }, data);
    const reviewers = [await person('viewer'), await person('viewer'), await person('viewer')];
    const given: Array<Array<[boolean, number]>> = [
      [
        [true, 5],
        [true, 4],
        [false, 3],
      ],
      [
        [false, 1],
        [false, 1],
      ],
      [[true, 2]],
      [
        [false, 2],
        [false, 2],
        [false, 2],
      ],
    ];
    const items = (await client.get(`/v1/review_queues/${queue}/items`)).body.data;
    for (const [index, reviews] of given.entries())
      for (const [reviewer, [correct, tone]] of reviews.entries()) {
        const made = await reviewers[reviewer]!.client.post(
          `/v1/review_queues/${queue}/items/${items[index].guid}/reviews`,
          { answers: { correct, tone, topic: 'billing' } },
        );
        expect(made.status, JSON.stringify(made.body)).toBe(201);
      }
    const agreement = (await client.get(`/v1/review_queues/${queue}/agreement`)).body.questions;
    // The third item has one review: no pair. Pairs 3 + 1 + 3, agreeing 1 + 1 + 3.
    expect(agreement.correct.items).toBe(3);
    expect(agreement.correct.percent_agreement).toBeCloseTo(5 / 7, 10);
    // Over the items with 3 reviews (TTF, FFF): P̄ = (1/3 + 1) / 2, P̄e = (1/3)² + (2/3)², κ = 1/4.
    expect(agreement.correct.kappa).toBeCloseTo(1 / 4, 10);
    // 5·4·3, 1·1, 2·2·2: N = 8, Σv = 20, Σv² = 64; D_e = 2(8·64 − 20²) / 56 = 4; D_o = 2·3 / 8; α = 0.8125.
    expect(agreement.tone.alpha).toBeCloseTo(0.8125, 10);
    // One answer throughout: agreement is complete, kappa undefined.
    expect(agreement.topic.percent_agreement).toBe(1);
    expect(agreement.topic.kappa).toBeNull();

    // A question made `text` drops out; made a choice again, its answers are counted again from the reviews.
    const agreementNow = async () =>
      (await client.get(`/v1/review_queues/${queue}/agreement`)).body.questions;
    const asText = questions.map((each) =>
      each.key === 'topic' ? { key: each.key, label: each.label, type: 'text' } : each,
    );
    expect((await client.put(`/v1/review_queues/${queue}`, { questions: asText })).status).toBe(200);
    expect(Object.keys(await agreementNow())).toEqual(['correct', 'tone']);
    expect((await client.put(`/v1/review_queues/${queue}`, { questions })).status).toBe(200);
    // The answers are counted again by a background job: the figures are whole once it has run.
    await eventually(async () => {
      const now = await agreementNow();
      return JSON.stringify(now) === JSON.stringify(agreement) ? now : undefined;
    });

    // The first item's generation deleted: its reviews leave the figures. Left: FF and FFF; tone 1·1, 2·2·2.
    expect((await client.delete(`/v1/data/${items[0].data_guid}`)).status).toBe(200);
    const without = await agreementNow();
    expect(without.correct).toMatchObject({ items: 2, percent_agreement: 1, kappa: null });
    expect(without.tone.items).toBe(2);
    expect(without.tone.alpha).toBeCloseTo(1, 10);
  });
});
