import { describe, expect, it } from 'vitest';
import { signedInPerson } from '../helpers/people.js';
import { createAction, newWorkspace, useTestWorkspace } from '../helpers/test-app.js';

// Datasets (docs/evaluations.md#datasets): items added by API, from stored generations and from JSON Lines or CSV
// files; every change of the items is a new version and every earlier version stays readable.
const context = useTestWorkspace();

async function newDataset(name = 'Refund questions') {
  const created = await context.client.post('/v1/datasets', { name, description: 'Questions customers ask' });
  expect(created.status).toBe(201);
  return created.body as { guid: string; version: number; item_count: number };
}

async function itemsOf(guid: string, query = '') {
  const answer = await context.client.get(`/v1/datasets/${guid}/items${query}`);
  expect(answer.status).toBe(200);
  return answer.body as { data: any[]; total_count: number; has_next_page: boolean };
}

const upload = (guid: string, body: string, type: string) =>
  context.client.request('POST', `/v1/datasets/${guid}/items/import`, body, { 'content-type': type });

describe('datasets', () => {
  it('creates, lists, renames (no new version) and deletes a dataset', async () => {
    const dataset = await newDataset('Billing');
    expect(dataset).toMatchObject({
      guid: expect.any(String),
      name: 'Billing',
      description: 'Questions customers ask',
      version: 1,
      item_count: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const listed = await context.client.get('/v1/datasets');
    expect(listed.body.data.map((each: { guid: string }) => each.guid)).toContain(dataset.guid);

    const renamed = await context.client.put(`/v1/datasets/${dataset.guid}`, { name: 'Billing questions' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Billing questions', version: 1 });

    expect((await context.client.delete(`/v1/datasets/${dataset.guid}`)).body).toEqual({
      guid: dataset.guid,
      deleted: true,
    });
    expect((await context.client.get(`/v1/datasets/${dataset.guid}`)).status).toBe(404);
    expect(
      (await context.client.post(`/v1/datasets/${dataset.guid}/items`, { items: [{ input: 'x' }] })).status,
    ).toBe(404);
  });

  it('makes one version per change, and every earlier version stays readable', async () => {
    const dataset = await newDataset();
    const added = await context.client.post(`/v1/datasets/${dataset.guid}/items`, {
      items: [
        { input: { question: 'Can I get a refund?' }, expected_output: 'Yes, within 30 days.' },
        { input: 'Where is my order?', metadata: { topic: 'shipping' } },
        { input: [{ role: 'user', content: 'Cancel my plan' }] },
      ],
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ added: 3, version: 2 });
    const second = await itemsOf(dataset.guid);
    expect(second.total_count).toBe(3);
    expect(second.data[0]).toEqual({
      guid: expect.any(String),
      input: { question: 'Can I get a refund?' },
      expected_output: 'Yes, within 30 days.',
      metadata: {},
    });
    expect(second.data[1]).toMatchObject({ input: 'Where is my order?', expected_output: null });
    const [refund, order, cancel] = second.data;

    const edited = await context.client.put(`/v1/datasets/${dataset.guid}/items/${order.guid}`, {
      expected_output: 'It ships in two days.',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({
      version: 3,
      item: {
        guid: order.guid,
        input: 'Where is my order?',
        expected_output: 'It ships in two days.',
        metadata: { topic: 'shipping' },
      },
    });
    const removed = await context.client.delete(`/v1/datasets/${dataset.guid}/items/${refund.guid}`);
    expect(removed.body).toEqual({ guid: refund.guid, deleted: true, version: 4 });

    // The newest version, in the order the items were added; an edited item keeps its place and GUID.
    const newest = await itemsOf(dataset.guid);
    expect(newest.data.map((item) => item.guid)).toEqual([order.guid, cancel.guid]);
    expect(newest.data[0].expected_output).toBe('It ships in two days.');
    expect((await context.client.get(`/v1/datasets/${dataset.guid}`)).body).toMatchObject({
      version: 4,
      item_count: 2,
    });
    // Earlier versions, as they were.
    expect((await itemsOf(dataset.guid, '?version=1')).total_count).toBe(0);
    expect((await itemsOf(dataset.guid, '?version=2')).data).toEqual(second.data);
    const third = await itemsOf(dataset.guid, '?version=3');
    expect(third.data.map((item) => item.expected_output)).toEqual([
      'Yes, within 30 days.',
      'It ships in two days.',
      null,
    ]);
    expect((await context.client.get(`/v1/datasets/${dataset.guid}/items?version=5`)).status).toBe(404);
    // Paging.
    const page = await itemsOf(dataset.guid, '?version=3&skip=1&limit=1');
    expect(page).toMatchObject({ total_count: 3, has_next_page: true });
    expect(page.data[0].guid).toBe(order.guid);
    // An item no longer in the newest version cannot be changed or removed again.
    expect(
      (await context.client.put(`/v1/datasets/${dataset.guid}/items/${refund.guid}`, { input: 'again' }))
        .status,
    ).toBe(404);
    expect((await context.client.delete(`/v1/datasets/${dataset.guid}/items/${refund.guid}`)).status).toBe(
      404,
    );
  });

  it('gives concurrent changes a version each', async () => {
    const dataset = await newDataset();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        context.client.post(`/v1/datasets/${dataset.guid}/items`, {
          items: [{ input: `question ${index}` }],
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    expect(answers.map((answer) => answer.body.version).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7]);
    expect((await context.client.get(`/v1/datasets/${dataset.guid}`)).body).toMatchObject({
      version: 7,
      item_count: 6,
    });
  });

  it('adds stored generations: their input, and their output as the expected one', async () => {
    const action = await createAction(context.client);
    const run = await context.client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'Ada' } });
    expect(run.status).toBe(200);
    const dataset = await newDataset();
    const added = await context.client.post(`/v1/datasets/${dataset.guid}/items`, {
      from_data: [run.body.data_guid],
    });
    expect(added.status).toBe(201);
    const [item] = (await itemsOf(dataset.guid)).data;
    expect(item).toMatchObject({ input: { name: 'Ada' }, expected_output: run.body.msg });

    // A generation of another workspace is not found, and nothing is added.
    const other = await newWorkspace(context.test);
    const otherAction = await createAction(other);
    const foreign = await other.post(`/v1/actions/${otherAction.guid}/prompt`, { input: { name: 'Eve' } });
    const refused = await context.client.post(`/v1/datasets/${dataset.guid}/items`, {
      from_data: [run.body.data_guid, foreign.body.data_guid],
    });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toContain(foreign.body.data_guid);
    expect((await context.client.get(`/v1/datasets/${dataset.guid}`)).body.version).toBe(2);
  });

  it('imports JSON Lines and CSV in one version, and exports JSON Lines that import back', async () => {
    const dataset = await newDataset();
    const lines = [
      JSON.stringify({ input: { question: 'Refund?' }, expected_output: 'Yes' }),
      '',
      JSON.stringify({ input: 'Plain text', metadata: { source: 'chat' } }),
    ].join('\n');
    // Written by an editor that starts UTF-8 with a byte-order mark: the mark is no part of line 1.
    const jsonl = await upload(dataset.guid, `\uFEFF${lines}`, 'application/x-ndjson');
    // The export's line is declared in the OpenAPI document, not left as any JSON.
    const openapi = (await context.test.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const line =
      openapi.paths['/v1/datasets/{guid}/items/export'].get.responses['200'].content['application/x-ndjson']
        .schema;
    expect(JSON.stringify(line)).toContain('ChatFineTuningExample');
    expect(JSON.stringify(line)).toContain('#/components/schemas/DatasetItem');
    expect(jsonl.status, JSON.stringify(jsonl.body)).toBe(201);
    expect(jsonl.body).toEqual({ added: 2, version: 2 });

    const csv = [
      'question,customer,expected_output,metadata.topic',
      'Refund?,Ada,Yes,billing',
      '"Where is it,',
      'exactly?",Grace,,shipping',
    ].join('\r\n');
    const imported = await upload(dataset.guid, csv, 'text/csv');
    expect(imported.status).toBe(201);
    expect(imported.body).toEqual({ added: 2, version: 3 });
    const items = (await itemsOf(dataset.guid)).data;
    expect(items.slice(2)).toEqual([
      {
        guid: expect.any(String),
        input: { question: 'Refund?', customer: 'Ada' },
        expected_output: 'Yes',
        metadata: { topic: 'billing' },
      },
      {
        guid: expect.any(String),
        input: { question: 'Where is it,\r\nexactly?', customer: 'Grace' },
        expected_output: null,
        metadata: { topic: 'shipping' },
      },
    ]);

    const exported = await context.test.app.inject({
      method: 'GET',
      url: `/v1/datasets/${dataset.guid}/items/export?version=2`,
      headers: { authorization: `Bearer ${context.client.apiKey}` },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('application/x-ndjson');
    const exportedLines = exported.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(exportedLines).toEqual((await itemsOf(dataset.guid, '?version=2')).data);
    // As OpenAI chat fine-tuning examples: the input as the user's turn (variables as JSON text, a
    // message list as it is), the expected output as the answer; an item without one is left out.
    const fineTuning = await context.test.app.inject({
      method: 'GET',
      url: `/v1/datasets/${dataset.guid}/items/export?version=2&format=openai_chat`,
      headers: { authorization: `Bearer ${context.client.apiKey}` },
    });
    const examples = fineTuning.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(examples).toEqual([
      {
        messages: [
          { role: 'user', content: '{"question":"Refund?"}' },
          { role: 'assistant', content: 'Yes' },
        ],
      },
    ]);

    const copy = await newDataset('Copy');
    expect((await upload(copy.guid, exported.body, 'application/x-ndjson')).body).toEqual({
      added: 2,
      version: 2,
    });
    expect((await itemsOf(copy.guid)).data.map((item) => item.input)).toEqual([
      { question: 'Refund?' },
      'Plain text',
    ]);
  });

  it('imports 10,000 items in one version, and refuses a file of more', async () => {
    const dataset = await newDataset();
    const line = (index: number) =>
      JSON.stringify({ input: { question: `question ${index}` }, expected_output: `answer ${index}` });
    const lines = Array.from({ length: 10_000 }, (_, index) => line(index));
    const started = performance.now();
    const imported = await upload(dataset.guid, lines.join('\n'), 'application/x-ndjson');
    console.log(`10,000 items imported in ${Math.round(performance.now() - started)} ms`);
    expect(imported.body).toEqual({ added: 10_000, version: 2 });
    const last = await itemsOf(dataset.guid, '?skip=9999&limit=1');
    expect(last.data[0]).toMatchObject({
      input: { question: 'question 9999' },
      expected_output: 'answer 9999',
    });

    const tooMany = await upload(dataset.guid, [...lines, line(10_000)].join('\n'), 'application/x-ndjson');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('line 10001: an import holds at most 10000 items');
    expect((await context.client.get(`/v1/datasets/${dataset.guid}`)).body).toMatchObject({
      version: 2,
      item_count: 10_000,
    });
  });

  it('refuses a bad line naming it, and imports nothing of that file', async () => {
    const dataset = await newDataset();
    const cases: [string, string, RegExp][] = [
      [
        `${JSON.stringify({ input: 'fine' })}\n{"input": 42}`,
        'application/x-ndjson',
        /^line 2: input: must be/,
      ],
      [
        `${JSON.stringify({ input: 'fine' })}\nnot json`,
        'application/x-ndjson',
        /^line 2: not a JSON object/,
      ],
      [`{"input": "x", "surprise": 1}`, 'application/x-ndjson', /^line 1: .*surprise/],
      ['', 'application/x-ndjson', /^line 1: the file holds no item/],
      [
        `${JSON.stringify({ input: 'fine' })}\n${JSON.stringify({ input: 'nul \u0000 here' })}`,
        'application/x-ndjson',
        /^line 2\.input: /,
      ],
      ['input,expected_output\n"unclosed,x', 'text/csv', /^line 2: /],
      ['input,question\nx,y', 'text/csv', /either an input column or one column per variable/],
    ];
    for (const [body, type, message] of cases) {
      const refused = await upload(dataset.guid, body, type);
      expect(refused.status, body).toBe(400);
      expect(refused.body.message, body).toMatch(message);
    }
    const wrongType = await upload(dataset.guid, 'input\nx', 'text/plain');
    expect(wrongType.status).toBe(400);
    expect((await context.client.get(`/v1/datasets/${dataset.guid}`)).body).toMatchObject({
      version: 1,
      item_count: 0,
    });
  });

  it('refuses bad input with the field named, and another workspace’s dataset is not found', async () => {
    const dataset = await newDataset();
    const refusals: [unknown, RegExp][] = [
      [{ items: [{ input: 42 }] }, /items\.0\.input/],
      [{ items: [] }, /items/],
      [{}, /either items or from_data/],
      [{ items: [{ input: 'x' }], from_data: [crypto.randomUUID()] }, /either items or from_data/],
      [{ from_data: ['not-a-guid'] }, /from_data\.0/],
    ];
    for (const [body, message] of refusals) {
      const refused = await context.client.post(`/v1/datasets/${dataset.guid}/items`, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.message, JSON.stringify(body)).toMatch(message);
    }
    expect((await context.client.post('/v1/datasets', { name: '' })).status).toBe(400);

    const other = await newWorkspace(context.test);
    for (const [method, url] of [
      ['GET', `/v1/datasets/${dataset.guid}`],
      ['GET', `/v1/datasets/${dataset.guid}/items`],
      ['GET', `/v1/datasets/${dataset.guid}/items/export`],
      ['PUT', `/v1/datasets/${dataset.guid}`],
      ['DELETE', `/v1/datasets/${dataset.guid}`],
    ] as const) {
      const answer = await other.request(method, url, method === 'PUT' ? { name: 'mine' } : undefined);
      expect(answer.status, `${method} ${url}`).toBe(404);
    }
    const foreignImport = await other.request(
      'POST',
      `/v1/datasets/${dataset.guid}/items/import`,
      '{"input":"x"}',
      {
        'content-type': 'application/x-ndjson',
      },
    );
    expect(foreignImport.status).toBe(404);
    expect((await context.client.get(`/v1/datasets/${dataset.guid}`)).body.version).toBe(1);
  });

  it('lets a viewer read datasets but not change them, and records who changed what', async () => {
    const dataset = await newDataset();
    const { client: viewer } = await signedInPerson(context.test, context.client.workspaceGuid, 'viewer');
    expect((await viewer.get(`/v1/datasets/${dataset.guid}/items`)).status).toBe(200);
    expect(
      (await viewer.post(`/v1/datasets/${dataset.guid}/items`, { items: [{ input: 'x' }] })).status,
    ).toBe(403);

    const { person, client: developer } = await signedInPerson(
      context.test,
      context.client.workspaceGuid,
      'developer',
    );
    const created = await developer.post('/v1/datasets', { name: 'Mine' });
    expect(created.body.created_by_id).toBe(person.id);
    await developer.post(`/v1/datasets/${created.body.guid}/items`, {
      items: [{ input: 'x' }, { input: 'y' }],
    });
    const records = await context.client.get(`/v1/audit_log?actor=${person.id}`);
    expect(
      records.body.data
        .slice(0, 2)
        .map((record: { action: string; changes: unknown }) => [record.action, record.changes]),
    ).toEqual([
      ['POST /v1/datasets/{guid}/items', { added: 2, version: 2 }],
      ['POST /v1/datasets', { name: 'Mine' }],
    ]);
  });
});
