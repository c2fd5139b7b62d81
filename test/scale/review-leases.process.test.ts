import { afterAll, expect, it } from 'vitest';
import { keyedCaller, personKey, type ServingProcess, serve } from '../helpers/lectern-process.js';
import { useProcessEnvironment } from '../helpers/test-app.js';

// Review leases across nodes (docs/review.md#leases): two api nodes on one PostgreSQL, reviewers
// asking both at once. No item is leased to more people than it needs, nobody gets one twice, and
// every item ends with exactly its reviews. Collected in CI's PostgreSQL and Redis pass only.
const apiKey = 'lec_review_leases_key_0123456789abcdefghijkl';
const processEnvironment = useProcessEnvironment({
  LECTERN_INIT_API_KEY: apiKey,
  LECTERN_SECRET: 'review-leases-shared-secret-0123456789',
  LECTERN_CONSOLE_SIGN_INS_PER_MINUTE: '100000',
});
const call = keyedCaller(apiKey);
const nodes: ServingProcess[] = [];
afterAll(() => Promise.all(nodes.map((node) => node.stop())));

it('never leases an item beyond its reviews when reviewers ask two nodes at once', async () => {
  nodes.push(await serve(processEnvironment.values, ['--role', 'api']));
  nodes.push(await serve(processEnvironment.values, ['--role', 'api']));
  const [first, second] = nodes.map((node) => node.baseUrl) as [string, string];
  const app = await call(first, 'POST', '/v1/apps', { name: 'review leases' });
  const action = await call(first, 'POST', '/v1/actions/create', {
    app: app.body.guid,
    name: 'answers',
    model: 'mock/echo',
    prompt: '{{text}}',
  });
  const records = Array.from({ length: 60 }, (_, index) => ({
    action: action.body.guid,
    version: 1,
    input: { text: `question ${index}` },
    output: `answer ${index}`,
  }));
  const logged = await call(first, 'POST', '/v1/data/batch', { records });
  const queue = await call(first, 'POST', '/v1/review_queues', {
    name: 'leases',
    questions: [{ key: 'good', label: 'Good?', type: 'boolean' }],
    reviews_per_item: 3,
  });
  await call(first, 'POST', `/v1/review_queues/${queue.body.guid}/items`, {
    data: logged.body.data.map((each: { guid: string }) => each.guid),
  });
  const keys = await Promise.all(
    Array.from({ length: 12 }, (_, index) => personKey(call, first, `leases-${index}`)),
  );

  const leasedTwice: string[] = [];
  const refused: number[] = [];
  await Promise.all(
    keys.map(async (key, index) => {
      // `next` answers 204 with no body when nothing is left: read the body only when there is one.
      const as = async (baseUrl: string, method: string, path: string, body?: unknown) => {
        const response = await fetch(`${baseUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body !== undefined && { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : undefined };
      };
      const node = index % 2 === 0 ? first : second;
      const seen = new Set<string>();
      for (;;) {
        const leased = await as(node, 'POST', `/v1/review_queues/${queue.body.guid}/next`);
        if (leased.status === 204) return;
        expect(leased.status).toBe(200);
        const item = leased.body.item.guid as string;
        if (seen.has(item)) leasedTwice.push(item);
        seen.add(item);
        const review = await as(node, 'POST', `/v1/review_queues/${queue.body.guid}/items/${item}/reviews`, {
          answers: { good: index % 2 === 0 },
        });
        if (review.status !== 201) refused.push(review.status);
      }
    }),
  );
  expect(leasedTwice).toEqual([]);
  expect(refused).toEqual([]);
  const items = await call(second, 'GET', `/v1/review_queues/${queue.body.guid}/items?limit=100`);
  expect(items.body.data.map((item: { review_count: number }) => item.review_count)).toEqual(
    Array(60).fill(3),
  );
  expect((await call(first, 'GET', `/v1/review_queues/${queue.body.guid}`)).body.counts).toEqual({
    pending: 0,
    in_review: 0,
    completed: 60,
  });
}, 120_000);
