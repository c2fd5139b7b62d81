import { expect, it } from 'vitest';
import { createAction, newWorkspace, useTestWorkspace } from '../helpers/test-app.js';

// GET /v1/data/export: the filtered records as a JSONL or CSV download, streamed in keyset batches.
const context = useTestWorkspace();

const text = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body));

it('exports every matching record once, newest first, across batches of rows that share a timestamp', async () => {
  const { client } = context;
  const action = await createAction(client);
  // A batch is stored in one statement, so its rows share created_at: only the id orders them.
  for (const size of [500, 500, 120]) {
    const stored = await client.post('/v1/data/batch', {
      records: Array.from({ length: size }, (_, index) => ({
        action: action.guid,
        input: `question ${size}-${index}`,
        output: `answer ${index}`,
      })),
    });
    expect(stored.status).toBe(201);
  }
  const response = await client.get(`/v1/data/export?action=${action.guid}`);
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toContain('application/x-ndjson');
  expect(response.headers['content-disposition']).toMatch(/attachment; filename="generations-.*\.jsonl"/);
  const lines = text(response.body).trimEnd().split('\n');
  const records = lines.map((line) => JSON.parse(line) as { guid: string; action: string });
  expect(records).toHaveLength(1_120);
  expect(new Set(records.map((record) => record.guid)).size).toBe(1_120);
  expect(records.every((record) => record.action === action.guid)).toBe(true);
  // The same order as the list.
  const page = await client.get(`/v1/data?action=${action.guid}&limit=100`);
  expect(records.slice(0, 100).map((record) => record.guid)).toEqual(
    page.body.data.map((record: { guid: string }) => record.guid),
  );

  const filtered = await client.get(`/v1/data/export?action=${action.guid}&q=question%20120-7`);
  const matched = text(filtered.body).trimEnd().split('\n');
  // "question 120-7" and "question 120-70…79"
  expect(matched).toHaveLength(11);
});

it('writes CSV with a header, quotes what needs it and defuses cells a spreadsheet would run', async () => {
  const { client } = context;
  const action = await createAction(client);
  await client.post('/v1/data/batch', {
    records: [
      { action: action.guid, input: 'plain', output: '=HYPERLINK("http://x","click")', num_input_tokens: 4 },
      { action: action.guid, input: { topic: 'a, b' }, output: 'two\nlines' },
    ],
  });
  const response = await client.get(`/v1/data/export?action=${action.guid}&format=csv`);
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toContain('text/csv');
  const body = text(response.body);
  const [header] = body.split('\r\n');
  expect(header).toBe(
    'guid,created_at,action,version,environment,session,experiment,source,model_provider,model,num_input_tokens,num_output_tokens,latency_ms,cost,input,output',
  );
  expect(body).toContain(`"'=HYPERLINK(""http://x"",""click"")"`);
  expect(body).toContain('"{""topic"":""a, b""}","two\nlines"');
  expect(body.split('\r\n').filter(Boolean)).toHaveLength(3);
});

it('refuses a bad filter or format with 400 naming it, and exports nothing of another workspace', async () => {
  const bad = await context.client.get('/v1/data/export?format=xlsx');
  expect(bad.status).toBe(400);
  expect(bad.body.message).toContain('format');
  const badDate = await context.client.get('/v1/data/export?from=soon');
  expect(badDate.status).toBe(400);
  expect(badDate.body.message).toContain('from');

  const other = await newWorkspace(context.test);
  const foreign = await createAction(other);
  await other.post('/v1/data/batch', { records: [{ action: foreign.guid, input: 'secret', output: 'x' }] });
  const mine = await context.client.get(`/v1/data/export?action=${foreign.guid}`);
  expect(mine.status).toBe(200);
  expect(text(mine.body)).toBe('');
});

it('exports the generations with good feedback as OpenAI chat fine-tuning examples', async () => {
  const { client } = context;
  const action = await createAction(client, {
    prompt: 'Capital of {{country}}?',
    system_message: 'Be brief.',
  });
  const run = async (country: string) =>
    (await client.post(`/v1/actions/${action.guid}/prompt`, { input: { country } })).body.data_guid as string;
  const good = await run('France');
  const bad = await run('Spain');
  await run('Italy');
  await client.post(`/v1/feedback/${good}`, { type: 'rating', value: 'good' });
  await client.post(`/v1/feedback/${bad}`, { type: 'rating', value: 'bad' });
  const exported = await client.get(`/v1/data/export?action=${action.guid}&feedback=good&format=openai_chat`);
  expect(exported.status).toBe(200);
  const lines = text(exported.body)
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  // The prompt the model was sent, then its answer (mock/echo answers with the prompt's last turn).
  expect(lines).toEqual([
    {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Capital of France?' },
        { role: 'assistant', content: 'Capital of France?' },
      ],
    },
  ]);
  const listed = await client.get(`/v1/data?action=${action.guid}&feedback=bad`);
  expect(listed.body.data.map((generation: { guid: string }) => generation.guid)).toEqual([bad]);
});
