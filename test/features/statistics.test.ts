import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { rowsOf } from '../../src/platform/database/connection.js';
import { createAction, newWorkspace, unknownGuid, useTestWorkspace } from '../helpers/test-app.js';

// GET /v1/statistics: the dashboard's series, aggregated in SQL over the workspace's generations.
const context = useTestWorkspace();

it('sums runs, tokens, cost and feedback per day, and latency percentiles per Action', async () => {
  const client = await newWorkspace(context.test);
  const busy = await createAction(client, { name: 'busy' });
  const quiet = await createAction(client, { name: 'quiet' });
  const log = async (action: string, latency: number, tokens: number) =>
    (
      await client.post('/v1/data', {
        action,
        input: { name: 'x' },
        output: 'y',
        latency_ms: latency,
        num_input_tokens: tokens,
        num_output_tokens: 1,
      })
    ).body.guid as string;
  const busyRuns = [await log(busy.guid, 100, 10), await log(busy.guid, 200, 10)];
  busyRuns.push(await log(busy.guid, 300, 10), await log(busy.guid, 400, 10));
  const quietRun = await log(quiet.guid, 50, 5);
  await client.post(`/v1/feedback/${busyRuns[0]}`, { type: 'rating', value: 'good' });
  const database = context.test.platform.database.database;
  // One run yesterday, and two with a price: the series must split and sum them.
  await database.execute(
    sql`UPDATE generations SET created_at = now() - interval '1 day' WHERE id = ${quietRun}`,
  );
  await database.execute(
    sql`UPDATE generations SET cost = '{"input":0.1,"output":0.15,"generation":0.25}'::jsonb
        WHERE id IN (${busyRuns[1]}, ${busyRuns[2]})`,
  );

  const response = await client.get('/v1/statistics');
  expect(response.status).toBe(200);
  const { days, actions } = response.body;
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  expect(days).toEqual([
    {
      day: yesterday,
      runs: 1,
      input_tokens: 5,
      output_tokens: 1,
      cost: 0,
      feedback_rate: 0,
      good_feedback: 0,
      bad_feedback: 0,
      errors: 0,
    },
    {
      day: today,
      runs: 4,
      input_tokens: 40,
      output_tokens: 4,
      cost: 0.5,
      feedback_rate: 0.25,
      good_feedback: 1,
      bad_feedback: 0,
      errors: 0,
    },
  ]);
  expect(actions).toEqual([
    {
      action: busy.guid,
      runs: 4,
      latency_p50_ms: 250,
      latency_p95_ms: 385,
      feedback_rate: 0.25,
      good_feedback: 1,
      bad_feedback: 0,
    },
    {
      action: quiet.guid,
      runs: 1,
      latency_p50_ms: 50,
      latency_p95_ms: 50,
      feedback_rate: 0,
      good_feedback: 0,
      bad_feedback: 0,
    },
  ]);

  // One Action, and a span that leaves yesterday out.
  const onlyQuiet = await client.get(`/v1/statistics?action=${quiet.guid}`);
  expect(onlyQuiet.body.actions.map((row: { action: string }) => row.action)).toEqual([quiet.guid]);
  const sinceToday = await client.get(`/v1/statistics?from=${today}T00:00:00Z`);
  expect(sinceToday.body.days.map((row: { day: string }) => row.day)).toEqual([today]);
});

it('counts runs whose model call failed as errors of their day, without storing a generation', async () => {
  const client = await newWorkspace(context.test);
  const failing = await createAction(client, { name: 'failing', model: 'mock/error' });
  const working = await createAction(client, { name: 'working' });
  for (let attempt = 0; attempt < 2; attempt++) {
    const failed = await client.post(`/v1/actions/${failing.guid}/prompt`, { input: { name: 'x' } });
    expect(failed.status).toBeGreaterThanOrEqual(500);
  }
  // A request refused before the model is called (a missing variable) is the caller's error, not one.
  expect((await client.post(`/v1/actions/${failing.guid}/prompt`, { input: {} })).status).toBe(400);
  await client.post(`/v1/actions/${working.guid}/prompt`, { input: { name: 'y' } });
  const database = context.test.platform.database.database;
  await database.execute(sql`UPDATE run_failures SET created_at = now() - interval '2 days'
    WHERE id = (SELECT id FROM run_failures WHERE action_id = ${failing.guid} LIMIT 1)`);

  const { days } = (await client.get('/v1/statistics')).body;
  const today = new Date().toISOString().slice(0, 10);
  const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  expect(days).toEqual([
    {
      day: twoDaysAgo,
      runs: 0,
      input_tokens: 0,
      output_tokens: 0,
      cost: 0,
      feedback_rate: null,
      good_feedback: 0,
      bad_feedback: 0,
      errors: 1,
    },
    expect.objectContaining({ day: today, runs: 1, errors: 1 }),
  ]);
  expect((await client.get(`/v1/statistics?action=${working.guid}`)).body.days).toEqual([
    expect.objectContaining({ day: today, runs: 1, errors: 0 }),
  ]);
  expect((await client.get(`/v1/data?action=${failing.guid}`)).body.total_count).toBe(0);
  const [stored] = rowsOf<{ source: string; model_provider: string; model: string; message: string }>(
    await database.execute(sql`SELECT source, model_provider, model, message FROM run_failures
      WHERE action_id = ${failing.guid} ORDER BY created_at DESC LIMIT 1`),
  );
  expect(stored).toMatchObject({ source: 'sync', model_provider: 'mock', model: 'error' });
  expect(stored!.message.length).toBeGreaterThan(0);
});

it('answers an empty span with empty series, and nothing of another workspace', async () => {
  const client = await newWorkspace(context.test);
  const other = await newWorkspace(context.test);
  const action = await createAction(other);
  await other.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'elsewhere' } });
  const response = await client.get('/v1/statistics');
  expect(response.status).toBe(200);
  expect(response.body).toMatchObject({ days: [], actions: [] });
  expect(new Date(response.body.to).getTime() - new Date(response.body.from).getTime()).toBe(30 * 86_400_000);
  expect((await client.get(`/v1/statistics?action=${action.guid}`)).status).toBe(404);
});

it('names the field of a bad span with 400', async () => {
  const { client } = context;
  const backwards = await client.get('/v1/statistics?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z');
  expect(backwards.status).toBe(400);
  expect(backwards.body.message).toContain('to');
  const tooLong = await client.get('/v1/statistics?from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z');
  expect(tooLong.status).toBe(400);
  expect(tooLong.body.message).toContain('366 days');
  const notADate = await client.get('/v1/statistics?from=last-week');
  expect(notADate.status).toBe(400);
  expect(notADate.body.message).toContain('from');
  expect((await client.get(`/v1/statistics?action=${unknownGuid}`)).status).toBe(404);
});
