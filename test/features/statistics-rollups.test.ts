import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { percentileOf, splitSpan } from '../../src/features/runtime/generations/statistics.js';
import { rowsOf } from '../../src/platform/database/connection.js';
import { createAction, newWorkspace, useTestWorkspace } from '../helpers/test-app.js';

// Finished days are summed once into generation_days and read from there; a change to such a day
// (feedback, an edited or deleted record) makes the next read sum it again.
const context = useTestWorkspace();
const dayMs = 86_400_000;
const daysAgo = (count: number) => new Date(Date.now() - count * dayMs).toISOString().slice(0, 10);

it('splits a span into finished whole days and the live ranges around them', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const split = splitSpan({ from: new Date('2026-03-07T06:00:00Z'), to: now }, now);
  expect(split.days).toEqual(['2026-03-08', '2026-03-09']);
  expect(split.live.map((range) => [range.from.toISOString(), range.to.toISOString()])).toEqual([
    ['2026-03-07T06:00:00.000Z', '2026-03-08T00:00:00.000Z'],
    ['2026-03-10T00:00:00.000Z', '2026-03-10T12:00:00.000Z'],
  ]);
  // Yesterday is not rolled up until it has been over for a while: late runs may still be stored.
  const justAfterMidnight = new Date('2026-03-10T00:05:00Z');
  expect(
    splitSpan({ from: new Date('2026-03-09T00:00:00Z'), to: justAfterMidnight }, justAfterMidnight),
  ).toEqual({
    days: [],
    live: [{ from: new Date('2026-03-09T00:00:00Z'), to: justAfterMidnight }],
  });
});

it('computes percentiles from value counts exactly as percentile_cont does', () => {
  // 100, 200, 200, 300, 400: p50 = 200; p95 at position 3.8 = 300 + 0.8 × 100.
  expect(percentileOf([100, 200, 300, 400], [1, 2, 1, 1], 0.5)).toBe(200);
  expect(percentileOf([100, 200, 300, 400], [1, 2, 1, 1], 0.95)).toBeCloseTo(380);
  expect(percentileOf([7], [3], 0.95)).toBe(7);
  expect(percentileOf([], [], 0.5)).toBeNull();
});

it('answers the same from stored rollups as from the records, and sums a changed day again', async () => {
  const client = await newWorkspace(context.test);
  const action = await createAction(client, { name: 'rolled' });
  const other = await createAction(client, { name: 'other' });
  const log = async (target: string, latency: number, ago: number) => {
    const guid = (
      await client.post('/v1/data', {
        action: target,
        input: 'x',
        output: 'y',
        latency_ms: latency,
        num_input_tokens: 10,
        num_output_tokens: 2,
      })
    ).body.guid as string;
    await context.test.platform.database.database.execute(
      sql`UPDATE generations SET created_at = now() - make_interval(days => ${ago}) WHERE id = ${guid}`,
    );
    return guid;
  };
  const threeDaysAgo = [await log(action.guid, 100, 3), await log(action.guid, 300, 3)];
  await log(action.guid, 200, 2);
  await log(other.guid, 50, 2);
  await log(action.guid, 900, 0);

  const first = (await client.get('/v1/statistics')).body;
  const database = context.test.platform.database.database;
  const stored = rowsOf<{ day: string; runs: number }>(
    await database.execute(sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, runs FROM generation_days
      WHERE workspace_id = (SELECT workspace_id FROM actions WHERE id = ${action.guid}) ORDER BY day, runs`),
  );
  expect(stored.map((row) => [row.day, Number(row.runs)])).toEqual([
    [daysAgo(3), 2],
    [daysAgo(2), 1],
    [daysAgo(2), 1],
  ]);
  expect(first.days.map((day: { day: string; runs: number }) => [day.day, day.runs])).toEqual([
    [daysAgo(3), 2],
    [daysAgo(2), 2],
    [daysAgo(0), 1],
  ]);
  // Percentiles over rolled-up and live days together: 100, 200, 300, 900.
  expect(first.actions[0]).toMatchObject({
    action: action.guid,
    runs: 4,
    latency_p50_ms: 250,
    latency_p95_ms: 810,
  });
  // Read again: from the rollups, the same answer.
  const again = (await client.get('/v1/statistics')).body;
  expect({ days: again.days, actions: again.actions }).toEqual({ days: first.days, actions: first.actions });
  expect((await client.get(`/v1/statistics?action=${other.guid}`)).body.actions).toEqual([
    {
      action: other.guid,
      runs: 1,
      latency_p50_ms: 50,
      latency_p95_ms: 50,
      feedback_rate: 0,
      good_feedback: 0,
      bad_feedback: 0,
    },
  ]);

  // Feedback on a finished day counts at once.
  const rating = await client.post(`/v1/feedback/${threeDaysAgo[0]}`, { type: 'rating', value: 'good' });
  const rated = (await client.get('/v1/statistics')).body;
  expect(rated.days[0]).toMatchObject({ day: daysAgo(3), runs: 2, feedback_rate: 0.5 });
  await client.delete(`/v1/feedback/${rating.body.guid}`);
  expect((await client.get('/v1/statistics')).body.days[0]).toMatchObject({ feedback_rate: 0 });

  // So do an edited latency and a deleted record.
  await client.put(`/v1/data/${threeDaysAgo[1]}`, { latency_ms: 700 });
  expect((await client.get('/v1/statistics')).body.actions[0]).toMatchObject({ latency_p50_ms: 450 });
  await client.delete(`/v1/data/${threeDaysAgo[1]}`);
  const afterDelete = (await client.get('/v1/statistics')).body;
  expect(afterDelete.days[0]).toMatchObject({ day: daysAgo(3), runs: 1 });
  expect(afterDelete.actions[0]).toMatchObject({ runs: 3, latency_p50_ms: 200 });
});

it("counts ratings on Klu's scale as good and bad, each run by its latest rating, rolled up or live", async () => {
  const client = await newWorkspace(context.test);
  const action = await createAction(client, { name: 'rated' });
  const database = context.test.platform.database.database;
  const log = async (ago: number) => {
    const guid = (await client.post('/v1/data', { action: action.guid, input: 'x', output: 'y' })).body
      .guid as string;
    await database.execute(
      sql`UPDATE generations SET created_at = now() - make_interval(days => ${ago}) WHERE id = ${guid}`,
    );
    return guid;
  };
  const rate = (guid: string, value: string, type = 'rating') =>
    client.post(`/v1/feedback/${guid}`, { type, value, source: 'klu-sdk' });
  // Two days ago (rolled up): a thumbs-up and a thumbs-down as Klu's SDK sends them, and a run rated
  // down and then up again, which counts once, as good.
  const [up, down, changed] = [await log(2), await log(2), await log(2)];
  await rate(up, '2');
  await rate(down, '1');
  await rate(changed, '1');
  await rate(changed, '2');
  // Today (live): the words, a deleted rating, and feedback that is no rating.
  const [positive, negative, withdrawn, corrected] = [await log(0), await log(0), await log(0), await log(0)];
  await rate(positive, 'positive');
  await rate(negative, 'negative');
  const deleted = await rate(withdrawn, '2');
  await client.delete(`/v1/feedback/${deleted.body.guid}`);
  await rate(corrected, '1', 'correction');

  const { days, actions } = (await client.get('/v1/statistics')).body;
  expect(days.map((day: Record<string, unknown>) => [day.day, day.good_feedback, day.bad_feedback])).toEqual([
    [daysAgo(2), 2, 1],
    [daysAgo(0), 1, 1],
  ]);
  expect(actions[0]).toMatchObject({ action: action.guid, runs: 7, good_feedback: 3, bad_feedback: 2 });
  // Read again, the finished day from its stored rollup: the same counts.
  expect((await client.get('/v1/statistics')).body.days).toEqual(days);
  const stored = rowsOf<{ good_feedback: number; bad_feedback: number }>(
    await database.execute(
      sql`SELECT good_feedback, bad_feedback FROM generation_days WHERE action_id = ${action.guid}`,
    ),
  );
  expect(stored.map((row) => [Number(row.good_feedback), Number(row.bad_feedback)])).toEqual([[2, 1]]);
});

it('lets two first readers of the same days compute them at once', async () => {
  const client = await newWorkspace(context.test);
  const action = await createAction(client);
  const guid = (
    await client.post('/v1/data', { action: action.guid, input: 'x', output: 'y', latency_ms: 5 })
  ).body.guid;
  await context.test.platform.database.database.execute(
    sql`UPDATE generations SET created_at = now() - interval '4 days' WHERE id = ${guid}`,
  );
  const answers = await Promise.all([1, 2, 3].map(() => client.get('/v1/statistics')));
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
  expect(answers[1]!.body.days).toEqual(answers[0]!.body.days);
  expect(answers[0]!.body.days).toEqual([expect.objectContaining({ day: daysAgo(4), runs: 1 })]);
});
