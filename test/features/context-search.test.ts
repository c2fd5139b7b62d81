import { beforeAll, describe, expect, it } from 'vitest';
import { createAction, eventually, request, useTestWorkspace } from '../helpers/test-app.js';

const context = useTestWorkspace();
let library: string;

const facts = [
  {
    content: 'The mitochondria is the powerhouse of the cell and produces ATP.',
    metadata: { topic: 'biology', year: 2020 },
  },
  {
    content: 'Photosynthesis converts sunlight, water and carbon dioxide into glucose in plants.',
    metadata: { topic: 'biology', year: 2021 },
  },
  {
    content: 'The French Revolution began in 1789 with the storming of the Bastille.',
    metadata: { topic: 'history', year: 1789 },
    filter: 'europe',
  },
  {
    content: 'Rome was founded, according to legend, by Romulus and Remus.',
    metadata: { topic: 'history', reviewed: true },
    filter: 'europe',
  },
  {
    content: 'Python is a programming language known for readable syntax.',
    metadata: { topic: 'computing', year: 1991 },
  },
  {
    content: 'Kubernetes schedules containers across a cluster of machines.',
    metadata: { topic: 'computing', year: 2014 },
  },
  { content: 'Whales are mammals that breathe air and nurse their young.', metadata: { topic: 'biology' } },
];

async function search(body: Record<string, unknown>, path = `/v1/contexts/${library}/search`) {
  return context.client.post(path, body);
}

beforeAll(async () => {
  const { client, test } = context;
  const created = await client.post('/v1/contexts', { name: 'Facts', description: 'Mixed facts' });
  library = created.body.guid;
  for (const fact of facts) {
    const added = await client.post(`/v1/contexts/${library}/documents`, fact);
    expect(added.status).toBe(200);
  }
  test.platform.jobs.start();
  await eventually(async () =>
    (await client.get(`/v1/contexts/${library}`)).body.processed ? true : undefined,
  );
});

describe('Context search', () => {
  it('ranks by a fused score in [0, 1], best first, with the default number of results', async () => {
    const answer = await search({ prompt: 'Which organelle produces ATP energy in the cell?' });
    expect(answer.status).toBe(200);
    expect(Array.isArray(answer.body)).toBe(true);
    expect(answer.body.length).toBeLessThanOrEqual(5);
    expect(answer.body[0]).toMatchObject({
      guid: expect.any(String),
      content: facts[0]!.content,
      score: expect.any(Number),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      metadata: facts[0]!.metadata,
      embedding: [],
    });
    const scores = answer.body.map((hit: { score: number }) => hit.score);
    expect([...scores].sort((left, right) => right - left)).toEqual(scores);
    for (const score of scores) {
      expect(score).toBeGreaterThan(0);
      expect(score).toBeLessThanOrEqual(1);
    }
  });

  it('respects number_of_results and the score threshold', async () => {
    const one = await search({ prompt: 'plants and sunlight', number_of_results: 1 });
    expect(one.body).toHaveLength(1);
    expect(one.body[0].content).toBe(facts[1]!.content);
    const all = await search({ prompt: 'history of europe', number_of_results: 7 });
    const strict = await search({
      prompt: 'history of europe',
      number_of_results: 7,
      score: all.body[1].score,
    });
    expect(strict.body.length).toBeLessThan(all.body.length);
    expect(strict.body.every((hit: { score: number }) => hit.score >= all.body[1].score)).toBe(true);
    const none = await search({ prompt: 'history of europe', score: 1 });
    expect(none.body).toEqual([]);
  });

  it('finds a Document by words alone (lexical), by meaning alone (vector), and both (hybrid)', async () => {
    const lexical = await search({ prompt: 'Bastille', mode: 'lexical' });
    expect(lexical.body[0].content).toBe(facts[2]!.content);
    expect(lexical.body).toHaveLength(1);
    const vector = await search({ prompt: 'software for orchestrating containers', mode: 'vector' });
    expect(vector.body[0].content).toBe(facts[5]!.content);
    const hybrid = await search({ prompt: 'containers cluster' });
    expect(hybrid.body[0].content).toBe(facts[5]!.content);
  });

  it('applies metadata_filter: scalar equality, arrays as any of, numbers and booleans', async () => {
    const contents = (answer: { body: Array<{ content: string }> }) =>
      answer.body.map((hit) => hit.content).sort();
    const biology = await search({
      prompt: 'cell energy',
      number_of_results: 10,
      metadata_filter: { topic: 'biology' },
    });
    expect(contents(biology)).toEqual([facts[0]!.content, facts[1]!.content, facts[6]!.content].sort());
    const either = await search({
      prompt: 'history language',
      number_of_results: 10,
      metadata_filter: { topic: ['history', 'computing'] },
    });
    expect(
      either.body.every((hit: { metadata: { topic: string } }) =>
        ['history', 'computing'].includes(hit.metadata.topic),
      ),
    ).toBe(true);
    expect(either.body.length).toBeGreaterThanOrEqual(3);
    const year = await search({ prompt: 'anything', number_of_results: 10, metadata_filter: { year: 1991 } });
    expect(contents(year)).toEqual([facts[4]!.content]);
    const reviewed = await search({ prompt: 'Rome', metadata_filter: { reviewed: true, topic: 'history' } });
    expect(contents(reviewed)).toEqual([facts[3]!.content]);
    const nothing = await search({ prompt: 'cell', metadata_filter: { topic: 'astronomy' } });
    expect(nothing.body).toEqual([]);
  });

  it('finds the filtered Documents even when every better match is filtered out', async () => {
    const { client } = context;
    const crowded = (await client.post('/v1/contexts', { name: 'Crowded', description: 'x' })).body.guid;
    // 60 strong matches outside the filter, 5 weak ones inside it: the filter must not come after a cut.
    const adds = [
      ...Array.from({ length: 60 }, (_, index) => ({
        content: `zephyr zephyr zephyr note ${index}`,
        metadata: { team: 'a' },
      })),
      ...Array.from({ length: 5 }, (_, index) => ({
        content: `A long memo that mentions zephyr once among many other words, number ${index}.`,
        metadata: { team: 'b' },
      })),
    ];
    for (const add of adds) await client.post(`/v1/contexts/${crowded}/documents`, add);
    const found = await search(
      { prompt: 'zephyr', mode: 'lexical', number_of_results: 10, metadata_filter: { team: 'b' } },
      `/v1/contexts/${crowded}/search`,
    );
    expect(found.body).toHaveLength(5);
    expect(found.body.every((hit: { metadata: { team: string } }) => hit.metadata.team === 'b')).toBe(true);
  });

  it('refuses every invalid metadata filter with a 400 naming it', async () => {
    const tooMany = Array.from({ length: 101 }, (_, index) => `v${index}`);
    const invalid: unknown[] = [
      { topic: { nested: 'object' } },
      { topic: null },
      { topic: [] },
      { topic: tooMany },
      { topic: [{ nested: true }] },
      { topic: [null] },
      { '': 'empty key' },
      { ['k'.repeat(65)]: 'long key' },
      { 'bad key': 'space' },
      { 'bad/key': 'slash' },
      { bad$key: 'dollar' },
      'not an object',
      ['array'],
    ];
    for (const filter of invalid) {
      const answer = await search({ prompt: 'cell', metadata_filter: filter });
      expect(answer.status, JSON.stringify(filter)).toBe(400);
      expect(answer.body.message).toMatch(/metadata_filter/);
    }
    const hundred = Array.from({ length: 100 }, (_, index) => `v${index}`);
    const edge = await search({
      prompt: 'cell',
      metadata_filter: { 'a.b-c_D9': hundred, ['k'.repeat(64)]: 1 },
    });
    expect(edge.status).toBe(200);
  });

  it('answers the singular compatibility paths with { data } and the legacy field names', async () => {
    for (const path of [`/v1/context/${library}/search`, `/context/${library}/search`]) {
      const answer = await search(
        { prompt: 'Bastille revolution', filter: 'europe', similarity_score: 0 },
        path,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.data.length).toBeGreaterThan(0);
      expect(answer.body.data.every((hit: { filter: string }) => hit.filter === 'europe')).toBe(true);
      const byMetadata = await search({ prompt: 'code', metadata: { topic: 'computing' } }, path);
      expect(
        byMetadata.body.data.every(
          (hit: { metadata: { topic: string } }) => hit.metadata.topic === 'computing',
        ),
      ).toBe(true);
    }
    const unauthenticated = await request(context.test.app, 'POST', `/context/${library}/search`, {
      prompt: 'x',
    });
    expect(unauthenticated.status).toBe(401);
  });

  it('rejects bad search bodies', async () => {
    expect((await search({})).status).toBe(400);
    expect((await search({ prompt: 'x', number_of_results: 0 })).status).toBe(400);
    expect((await search({ prompt: 'x', score: 2 })).status).toBe(400);
    expect((await search({ prompt: 'x', unknown: 1 })).status).toBe(400);
  });
});

describe('Prompt over documents', () => {
  it('retrieves similarityTopK nodes and answers with the default model in every response mode', async () => {
    const path = `/v1/contexts/${library}/prompt`;
    const compact = await context.client.post(path, { prompt: 'What produces ATP?', similarityTopK: 2 });
    expect(compact.status).toBe(200);
    expect(compact.body.nodes).toHaveLength(2);
    expect(compact.body.nodes[0].content).toBe(facts[0]!.content);
    // mock/echo answers with the prompt it was sent: the retrieved text and the question are in it.
    expect(compact.body.text).toContain(facts[0]!.content);
    expect(compact.body.text).toContain('Query: What produces ATP?');
    for (const responseMode of ['refine', 'tree_summarize', 'simple_summarize']) {
      const answer = await context.client.post(path, {
        prompt: 'What produces ATP?',
        similarityTopK: 3,
        responseMode,
      });
      expect(answer.status, responseMode).toBe(200);
      expect(answer.body.text.length, responseMode).toBeGreaterThan(0);
      expect(answer.body.nodes).toHaveLength(3);
    }
    const refine = await context.client.post(path, {
      prompt: 'What produces ATP?',
      similarityTopK: 2,
      responseMode: 'refine',
    });
    expect(refine.body.text).toContain('refine the original answer');
    const noText = await context.client.post(path, { prompt: 'What produces ATP?', responseMode: 'no_text' });
    expect(noText.body.text).toBe('');
    expect(noText.body.nodes.length).toBeGreaterThan(0);
    const filtered = await context.client.post(path, {
      prompt: 'What produces ATP?',
      metadataFilter: { topic: 'history' },
    });
    expect(
      filtered.body.nodes.every((node: { metadata: { topic: string } }) => node.metadata.topic === 'history'),
    ).toBe(true);
    expect((await context.client.post(path, { prompt: 'x', responseMode: 'poem' })).status).toBe(400);
    expect((await context.client.post(path, { prompt: 'x', metadataFilter: { a: null } })).status).toBe(400);
  });
});

describe('Retrieval in Action runs', () => {
  it('puts chunks of attached Contexts into a system message, filtered by the run metadata', async () => {
    const action = await createAction(context.client, {
      prompt: 'Answer briefly: {{question}}',
      contexts: [library],
    });
    const run = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { question: 'What does the mitochondria produce?' },
    });
    expect(run.status).toBe(200);
    const system = run.body.full_prompt_sent.find((message: { role: string }) => message.role === 'system');
    expect(system.content).toContain(facts[0]!.content);
    const filtered = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { question: 'What does the mitochondria produce?' },
      metadata: { topic: 'computing' },
    });
    const filteredSystem = filtered.body.full_prompt_sent.find(
      (message: { role: string }) => message.role === 'system',
    );
    expect(filteredSystem.content).not.toContain(facts[0]!.content);
    expect(filteredSystem.content).toContain('Kubernetes');
    const legacy = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { question: 'Revolution' },
      filter: 'europe',
    });
    const legacySystem = legacy.body.full_prompt_sent.find(
      (message: { role: string }) => message.role === 'system',
    );
    expect(legacySystem.content).toContain('Bastille');
    expect(legacySystem.content).not.toContain('mitochondria');
  });

  it('refuses to attach a Context the workspace does not have', async () => {
    const app = await context.client.post('/v1/apps', { name: 'Attachments' });
    const answer = await context.client.post('/v1/actions/create', {
      app: app.body.guid,
      name: 'Unknown context',
      model: 'mock/echo',
      prompt: 'x',
      contexts: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/contexts/);
  });

  it('fills {{context}} where the template writes it', async () => {
    const action = await createAction(context.client, {
      prompt: 'Facts:\n{{context}}\nQuestion: {{question}}',
      contexts: [library],
    });
    const run = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { question: 'Who founded Rome?' },
    });
    expect(run.status).toBe(200);
    expect(run.body.full_prompt_sent.some((message: { role: string }) => message.role === 'system')).toBe(
      false,
    );
    const user = run.body.full_prompt_sent.at(-1);
    expect(user.content).toContain('Romulus');
    expect(run.body.msg).toContain('Romulus');
  });
});
