import { expect, it } from 'vitest';
import { createAction, newWorkspace, useTestWorkspace } from '../helpers/test-app.js';

// GET /v1/data: every generation of the workspace, filtered, newest first (the console's log view).
const context = useTestWorkspace();

type Record = { guid: string; output: string; action: string; environment: string | null };

async function listed(query: string): Promise<Record[]> {
  const response = await context.client.get(`/v1/data${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

it('lists every record of the workspace newest first, filtered by each field and combined', async () => {
  const { client } = context;
  const greeter = await createAction(client, { name: 'greeter', prompt: 'Hello {{name}}' });
  const writer = await createAction(client, { name: 'writer', prompt: 'Write about {{topic}}' });
  await client.post(`/v1/actions/${writer.guid}/deploy`, { version: 1, environment: 'staging' });
  const run = async (action: string, input: object, extra: object = {}) =>
    (await client.post(`/v1/actions/${action}/prompt`, { input, ...extra })).body.data_guid as string;
  const first = await run(greeter.guid, { name: 'Ada' });
  const second = await run(writer.guid, { topic: 'glaciers' }, { environment: 'staging' });
  const third = await run(greeter.guid, { name: 'Grace' });
  const session = await client.post('/v1/sessions', { action: greeter.guid, name: 'chat' });
  const fourth = await run(greeter.guid, { name: 'Linus' }, { session: session.body.guid });

  const all = await context.client.get('/v1/data?limit=2');
  expect(all.body.total_count).toBe(4);
  expect(all.body.has_next_page).toBe(true);
  expect(all.body.data.map((record: Record) => record.guid)).toEqual([fourth, third]);
  const next = await listed('?skip=2&limit=2');
  expect(next.map((record) => record.guid)).toEqual([second, first]);

  expect((await listed(`?action=${writer.guid}`)).map((record) => record.guid)).toEqual([second]);
  expect((await listed('?environment=staging')).map((record) => record.guid)).toEqual([second]);
  expect((await listed(`?session=${session.body.guid}`)).map((record) => record.guid)).toEqual([fourth]);
  expect((await listed('?model=mock/echo')).length).toBe(4);
  expect((await listed('?model=echo')).length).toBe(4);
  expect(await listed('?model=openai/echo')).toEqual([]);
  expect((await listed('?source=sync&version=1')).length).toBe(4);
  // Full text, case-insensitive, over the input and the output; `%` and `_` are literal.
  expect((await listed('?q=grace')).map((record) => record.guid)).toEqual([third]);
  expect((await listed('?q=GLACIERS')).map((record) => record.guid)).toEqual([second]);
  expect(await listed('?q=%25')).toEqual([]);
  expect((await listed(`?q=Hello&action=${greeter.guid}`)).length).toBe(3);

  // Each listed record says how much feedback it has; a deleted one does not count.
  await client.post(`/v1/feedback/${third}`, { type: 'rating', value: 'good' });
  const removed = await client.post(`/v1/feedback/${third}`, { type: 'issue', value: 'typo' });
  await client.post(`/v1/feedback/${first}`, { type: 'rating', value: 'bad' });
  await client.delete(`/v1/feedback/${removed.body.guid}`);
  const counts = Object.fromEntries(
    (await context.client.get('/v1/data')).body.data.map(
      (record: { guid: string; feedback_count: number }) => [record.guid, record.feedback_count],
    ),
  );
  expect(counts).toEqual({ [first]: 1, [second]: 0, [third]: 1, [fourth]: 0 });
});

it('filters by a date range: from is inclusive, to exclusive', async () => {
  const { client } = context;
  const action = await createAction(client);
  const before = new Date(Date.now() - 1000).toISOString();
  const made = (await client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'Dated' } })).body
    .data_guid;
  const after = new Date(Date.now() + 60_000).toISOString();
  const inRange = await listed(`?action=${action.guid}&from=${before}&to=${after}`);
  expect(inRange.map((record) => record.guid)).toEqual([made]);
  expect(await listed(`?action=${action.guid}&from=${after}`)).toEqual([]);
  expect(await listed(`?action=${action.guid}&to=${before}`)).toEqual([]);
});

it('answers 400 naming the field for a bad filter, and shows nothing of another workspace', async () => {
  const badDate = await context.client.get('/v1/data?from=yesterday');
  expect(badDate.status).toBe(400);
  expect(badDate.body.message).toContain('from');
  const badGuid = await context.client.get('/v1/data?action=nope');
  expect(badGuid.status).toBe(400);
  expect(badGuid.body.message).toContain('action');
  const badVersion = await context.client.get('/v1/data?version=0');
  expect(badVersion.status).toBe(400);
  expect(badVersion.body.message).toContain('version');

  const other = await newWorkspace(context.test);
  const foreign = await createAction(other, { prompt: 'Secret {{name}}' });
  await other.post(`/v1/actions/${foreign.guid}/prompt`, { input: { name: 'elsewhere' } });
  expect(await listed('?q=elsewhere')).toEqual([]);
  expect(await listed(`?action=${foreign.guid}`)).toEqual([]);
});
