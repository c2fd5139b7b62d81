import { afterAll, expect, it } from 'vitest';
import {
  createTextAction,
  keyedCaller,
  personKey,
  type ServingProcess,
  serve,
} from '../helpers/lectern-process.js';
import { eventually, useProcessEnvironment } from '../helpers/test-app.js';

// The built service counts a queue's reviews again in a background job when its questions change:
// a question that was free text, made a choice, shows its reviewers' agreement once the job has run.
const apiKey = 'lec_review_recount_key_0123456789abcdefghijk';
const processEnvironment = useProcessEnvironment({
  LECTERN_INIT_API_KEY: apiKey,
  LECTERN_CONSOLE_SIGN_INS_PER_MINUTE: '100000',
});
const call = keyedCaller(apiKey);
let lectern: ServingProcess | undefined;
afterAll(() => lectern?.stop());

it('counts the reviews again after a question changes type, in a job of the built service', async () => {
  lectern = await serve(processEnvironment.values);
  const { baseUrl } = lectern;
  const action = await createTextAction(call, baseUrl, {
    app: 'recount',
    name: 'answers',
    model: 'mock/echo',
  });
  const records = Array.from({ length: 3 }, (_, index) => ({
    action,
    version: 1,
    input: { text: `question ${index}` },
    output: `answer ${index}`,
  }));
  const logged = await call(baseUrl, 'POST', '/v1/data/batch', { records });
  const good = { key: 'good', label: 'Good?', type: 'boolean' };
  const topic = { key: 'topic', label: 'Topic', type: 'text' };
  const queue = (
    await call(baseUrl, 'POST', '/v1/review_queues', {
      name: 'recount',
      questions: [good, topic],
      reviews_per_item: 2,
    })
  ).body.guid as string;
  await call(baseUrl, 'POST', `/v1/review_queues/${queue}/items`, {
    data: logged.body.data.map((each: { guid: string }) => each.guid),
  });
  const items = (await call(baseUrl, 'GET', `/v1/review_queues/${queue}/items`)).body.data as {
    guid: string;
  }[];
  // Both reviewers name the same topic of the first two items and differ on the third.
  for (const [person, topics] of [
    ['recount-a', ['billing', 'shipping', 'billing']],
    ['recount-b', ['billing', 'shipping', 'other']],
  ] as const) {
    const key = await personKey(call, baseUrl, person);
    for (const [index, item] of items.entries()) {
      const review = await keyedCaller(key)(
        baseUrl,
        'POST',
        `/v1/review_queues/${queue}/items/${item.guid}/reviews`,
        {
          answers: { good: true, topic: topics[index] },
        },
      );
      expect(review.status, JSON.stringify(review.body)).toBe(201);
    }
  }
  const agreement = async () =>
    (await call(baseUrl, 'GET', `/v1/review_queues/${queue}/agreement`)).body.questions;
  expect(Object.keys(await agreement())).toEqual(['good']);

  const asChoice = { ...topic, type: 'choice', options: ['billing', 'shipping', 'other'] };
  expect(
    (await call(baseUrl, 'PUT', `/v1/review_queues/${queue}`, { questions: [good, asChoice] })).status,
  ).toBe(200);
  const recounted = await eventually(async () => {
    const now = await agreement();
    return now.topic?.items === 3 ? now : undefined;
  }, 30_000);
  expect(recounted.topic.percent_agreement).toBeCloseTo(2 / 3, 10);
  expect(recounted.good).toMatchObject({ items: 3, percent_agreement: 1 });
}, 120_000);
