import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skills } from '../../src/features/authoring/skills/tables.js';
import { createAction, newWorkspace, unknownGuid, useTestWorkspace } from '../helpers/test-app.js';

// The endpoint stands for a public host on 127.0.0.4, the one private address this app may call.
const publicHost = '127.0.0.4';
const context = useTestWorkspace({ LECTERN_OUTBOUND_ALLOW: publicHost, LECTERN_FETCH_TIMEOUT_MS: '5000' });

type Received = { method: string; url: string; headers: IncomingHttpHeaders; body: string };
let endpoint: Server;
let endpointBase: string;
const received: Received[] = [];

beforeAll(async () => {
  endpoint = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      if (request.url?.startsWith('/broken')) {
        response.statusCode = 500;
        return response.end('database on fire');
      }
      response.setHeader('content-type', 'text/plain');
      response.end(`weather for ${decodeURIComponent(request.url!.split('city=')[1] ?? '')}: sunny`);
    });
  });
  endpointBase = await new Promise<string>((resolve) => {
    endpoint.listen(0, publicHost, () =>
      resolve(`http://${publicHost}:${(endpoint.address() as AddressInfo).port}`),
    );
  });
});

afterAll(() => new Promise<void>((resolve) => endpoint.close(() => resolve())));

async function createSkill(body: Record<string, unknown>) {
  const response = await context.client.post('/v1/skills', body);
  if (response.status !== 201) throw new Error(`skill create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

const calculator = () => createSkill({ name: 'calculator', type: 'calculator' });

describe('skill types (GET /v1/skills/types)', () => {
  it('lists the four types with their metadata definitions', async () => {
    const response = await context.client.get('/v1/skills/types');
    expect(response.status).toBe(200);
    const names = response.body.data.map((type: { name: string }) => type.name);
    expect(names).toEqual(['http_request', 'context_search', 'action', 'calculator']);
    const http = response.body.data[0];
    expect(http.guid).toMatch(/^[0-9a-f-]{36}$/);
    expect(http.metadata).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'url', required: true, type: 'url', value: null }),
        expect.objectContaining({ name: 'method', required: false, type: 'select', value: 'GET' }),
        expect.objectContaining({ name: 'headers', required: false, type: 'headers', value: {} }),
        expect.objectContaining({ name: 'body', required: false, type: 'text', value: null }),
      ]),
    );
    const search = response.body.data[1];
    expect(search.metadata).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'context', required: true }),
        expect.objectContaining({ name: 'number_of_results', required: false, value: 3 }),
      ]),
    );
    for (const type of response.body.data) {
      expect(type.description).toEqual(expect.any(String));
      for (const definition of type.metadata) {
        expect(Object.keys(definition)).toEqual(
          expect.arrayContaining(['name', 'required', 'type', 'value']),
        );
      }
    }
  });
});

describe('skills CRUD (intended behaviour)', () => {
  it('creates a Skill by type name or type GUID, with defaults filled in', async () => {
    const byName = await createSkill({
      name: 'Weather',
      type: 'http_request',
      metadata: [{ name: 'url', value: `${endpointBase}/weather?city={{input}}`, required: true }],
    });
    expect(byName).toMatchObject({ guid: expect.any(String), name: 'Weather', type: 'http_request' });
    expect(byName.metadata).toEqual(
      expect.arrayContaining([
        { name: 'url', required: true, type: 'url', value: `${endpointBase}/weather?city={{input}}` },
        { name: 'method', required: false, type: 'select', value: 'GET' },
      ]),
    );
    expect(byName.created_at).toEqual(expect.any(String));
    const types = (await context.client.get('/v1/skills/types')).body.data;
    const byGuid = await createSkill({ name: 'Maths', type: types[3].guid });
    expect(byGuid.type).toBe('calculator');
    expect((await context.client.get(`/v1/skills/${byGuid.guid}`)).body).toEqual(byGuid);
  });

  it('answers 404 Type not found for an unknown type and 400 naming bad metadata', async () => {
    const unknownType = await context.client.post('/v1/skills', { name: 'x', type: 'teleport' });
    expect(unknownType.status).toBe(404);
    expect(unknownType.body.message).toBe('Type not found');

    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', type: 'http_request' }, 'metadata.url'],
      [{ name: 'x', type: 'http_request', metadata: [{ name: 'url', value: '' }] }, 'metadata.url'],
      [
        { name: 'x', type: 'http_request', metadata: [{ name: 'url', value: 'ftp://host/x' }] },
        'metadata.url',
      ],
      [
        {
          name: 'x',
          type: 'http_request',
          metadata: [
            { name: 'url', value: 'https://a.test' },
            { name: 'method', value: 'TRACE' },
          ],
        },
        'metadata.method',
      ],
      [
        {
          name: 'x',
          type: 'http_request',
          metadata: [
            { name: 'url', value: 'https://a.test' },
            { name: 'headers', value: { 'bad header': 'x' } },
          ],
        },
        'metadata.headers',
      ],
      [
        {
          name: 'x',
          type: 'http_request',
          metadata: [
            { name: 'url', value: 'https://a.test' },
            { name: 'body', value: '{{input}}' },
          ],
        },
        'metadata.body',
      ],
      [{ name: 'x', type: 'calculator', metadata: [{ name: 'colour', value: 'red' }] }, 'metadata.0.name'],
      [{ name: 'x', type: 'context_search' }, 'metadata.context'],
      [
        { name: 'x', type: 'context_search', metadata: [{ name: 'context', value: unknownGuid }] },
        'metadata.context',
      ],
      [
        { name: 'x', type: 'context_search', metadata: [{ name: 'context', value: 'not-a-guid' }] },
        'metadata.context',
      ],
      [
        { name: 'x', type: 'action', metadata: [{ name: 'action', value: 'no-such-action' }] },
        'metadata.action',
      ],
      [{ name: 'x', type: 'calculator', extra: true }, 'extra'],
      [{ type: 'calculator' }, 'name'],
      [{ name: 'x' }, 'type'],
    ];
    for (const [body, field] of cases) {
      const response = await context.client.post('/v1/skills', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message, JSON.stringify(body)).toContain(field);
    }
  });

  it('lists with skip and limit applied and a right has_next_page', async () => {
    const client = await newWorkspace(context.test);
    for (const name of ['one', 'two', 'three']) {
      expect((await client.post('/v1/skills', { name, type: 'calculator' })).status).toBe(201);
    }
    const first = await client.get('/v1/skills?limit=2');
    expect(first.body).toMatchObject({ total_count: 3, has_next_page: true });
    expect(first.body.data.map((skill: { name: string }) => skill.name)).toEqual(['three', 'two']);
    const last = await client.get('/v1/skills?skip=2&limit=2');
    expect(last.body).toMatchObject({ total_count: 3, has_next_page: false });
    expect(last.body.data.map((skill: { name: string }) => skill.name)).toEqual(['one']);
  });

  it('renames with PUT (name only), deletes with DELETE, and hides other workspaces', async () => {
    const skill = await calculator();
    const renamed = await context.client.put(`/v1/skills/${skill.guid}`, { name: 'Sums' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      guid: skill.guid,
      name: 'Sums',
      type: 'calculator',
      metadata: skill.metadata,
    });
    const changeType = await context.client.put(`/v1/skills/${skill.guid}`, {
      name: 'x',
      type: 'http_request',
    });
    expect(changeType.status).toBe(400);
    expect(changeType.body.message).toContain('type');

    const stranger = await newWorkspace(context.test);
    expect((await stranger.get(`/v1/skills/${skill.guid}`)).status).toBe(404);
    expect((await stranger.put(`/v1/skills/${skill.guid}`, { name: 'mine' })).status).toBe(404);
    expect((await stranger.delete(`/v1/skills/${skill.guid}`)).status).toBe(404);
    expect((await stranger.post(`/v1/skills/${skill.guid}/prompt`, { prompt: '1+1' })).status).toBe(404);

    const removed = await context.client.delete(`/v1/skills/${skill.guid}`);
    expect(removed.status).toBe(200);
    expect((await context.client.get(`/v1/skills/${skill.guid}`)).status).toBe(404);
    expect((await context.client.delete(`/v1/skills/${skill.guid}`)).status).toBe(404);
    expect((await context.client.get('/v1/skills/not-a-guid')).status).toBe(400);
  });
});

describe('skill prompt (POST /v1/skills/{skill}/prompt)', () => {
  it('calculates exactly, and a bad expression is a 400 naming the prompt', async () => {
    const skill = await calculator();
    const answer = await context.client.post(`/v1/skills/${skill.guid}/prompt`, {
      prompt: '2 + 3 * 4 - 0.1 * 3',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ msg: '13.7' });
    for (const prompt of ['2 +', 'process.exit(1)', 'constructor', '1/0']) {
      const bad = await context.client.post(`/v1/skills/${skill.guid}/prompt`, { prompt });
      expect(bad.status, prompt).toBe(400);
      expect(bad.body.message).toMatch(/^prompt: cannot calculate/);
    }
    const extra = await context.client.post(`/v1/skills/${skill.guid}/prompt`, {
      prompt: '1',
      streaming: true,
    });
    expect(extra.status).toBe(400);
  });

  it('calls an HTTP endpoint: input URL-encoded in the URL, body template, secret headers redacted', async () => {
    const weather = await createSkill({
      name: 'Weather',
      type: 'http_request',
      metadata: [{ name: 'url', value: `${endpointBase}/weather?city={{input}}` }],
    });
    const answer = await context.client.post(`/v1/skills/${weather.guid}/prompt`, {
      prompt: 'São Paulo & co',
    });
    expect(answer.body).toEqual({ msg: 'weather for São Paulo & co: sunny' });
    expect(received.at(-1)!.url).toBe('/weather?city=S%C3%A3o%20Paulo%20%26%20co');

    const poster = await createSkill({
      name: 'Poster',
      type: 'http_request',
      metadata: [
        { name: 'url', value: `${endpointBase}/hook` },
        { name: 'method', value: 'post' },
        { name: 'headers', value: { Authorization: 'Bearer canary-skill-secret', 'X-Team': 'blue' } },
        { name: 'body', value: '{"text": {{ input | json }}}' },
      ],
    });
    const headers = poster.metadata.find((entry: { name: string }) => entry.name === 'headers');
    expect(headers.value).toEqual({ Authorization: '[redacted]', 'X-Team': '[redacted]' });
    expect(JSON.stringify((await context.client.get(`/v1/skills/${poster.guid}`)).body)).not.toContain(
      'canary',
    );
    const [row] = await context.test.platform.database.database
      .select()
      .from(skills)
      .where(eq(skills.id, poster.guid));
    expect(JSON.stringify(row)).not.toContain('canary');

    await context.client.post(`/v1/skills/${poster.guid}/prompt`, { prompt: 'say "hi"' });
    const call = received.at(-1)!;
    expect(call).toMatchObject({ method: 'POST', url: '/hook', body: '{"text": "say \\"hi\\""}' });
    expect(call.headers).toMatchObject({
      authorization: 'Bearer canary-skill-secret',
      'x-team': 'blue',
      'content-type': 'application/json',
    });
    expect(context.test.logs.join('\n')).not.toContain('canary-skill-secret');
  });

  it('reports an endpoint error as 502 and refuses private addresses', async () => {
    const broken = await createSkill({
      name: 'Broken',
      type: 'http_request',
      metadata: [{ name: 'url', value: `${endpointBase}/broken` }],
    });
    const failed = await context.client.post(`/v1/skills/${broken.guid}/prompt`, { prompt: 'x' });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe('the endpoint answered 500: database on fire');

    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://127.0.0.1:9/',
      'http://10.0.0.1/',
    ]) {
      const internal = await createSkill({
        name: 'Internal',
        type: 'http_request',
        metadata: [{ name: 'url', value: url }],
      });
      const refused = await context.client.post(`/v1/skills/${internal.guid}/prompt`, { prompt: 'x' });
      expect(refused.status, url).toBe(502);
      expect(refused.body.message, url).toMatch(/not public/);
    }
  });

  it('searches a Context', async () => {
    const library = await context.client.post('/v1/contexts', { name: 'Fruit', description: 'facts' });
    await context.client.post(`/v1/contexts/${library.body.guid}/documents`, {
      content: 'Kiwis are rich in vitamin C.',
    });
    await context.client.post(`/v1/contexts/${library.body.guid}/documents`, {
      content: 'Bananas grow in clusters called hands.',
    });
    const search = await createSkill({
      name: 'Fruit facts',
      type: 'context_search',
      metadata: [
        { name: 'context', value: library.body.guid },
        { name: 'number_of_results', value: '1' },
      ],
    });
    const answer = await context.client.post(`/v1/skills/${search.guid}/prompt`, { prompt: 'kiwi vitamin' });
    expect(answer.body).toEqual({ msg: '[1] Kiwis are rich in vitamin C.' });
    const stranger = await newWorkspace(context.test);
    const foreign = await stranger.post('/v1/skills', {
      name: 'Theirs',
      type: 'context_search',
      metadata: [{ name: 'context', value: library.body.guid }],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toContain('metadata.context');
    // The Context deleted since: the Skill says so instead of answering nothing.
    expect((await context.client.delete(`/v1/contexts/${library.body.guid}`)).status).toBe(200);
    const orphaned = await context.client.post(`/v1/skills/${search.guid}/prompt`, {
      prompt: 'kiwi vitamin',
    });
    expect(orphaned.body.message).toContain('the Context this Skill searches no longer exists');
  });

  it('runs another Action (found by slug, stored by GUID) and records its generation', async () => {
    const action = await createAction(context.client, {
      name: 'Shouter',
      slug: 'shouter',
      prompt: 'LOUD: {{text}}',
    });
    const skill = await createSkill({
      name: 'Shout',
      type: 'action',
      metadata: [{ name: 'action', value: 'shouter' }],
    });
    expect(skill.metadata.find((entry: { name: string }) => entry.name === 'action').value).toBe(action.guid);
    const answer = await context.client.post(`/v1/skills/${skill.guid}/prompt`, { prompt: 'hello' });
    expect(answer.body).toEqual({ msg: 'LOUD: hello' });
    const data = await context.client.get(`/v1/actions/${action.guid}/data`);
    expect(data.body[0]).toMatchObject({ output: 'LOUD: hello', source: 'skill' });
  });
});

describe('skills as tools', () => {
  it('offers attached Skills to the model and executes them in the tool loop', async () => {
    const skill = await createSkill({ name: 'Exact maths!', type: 'calculator' });
    const action = await createAction(context.client, {
      model: 'mock/tool',
      prompt: '{{question}}',
      skills: [skill.guid],
    });
    const run = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { question: '6 * 7' },
    });
    expect(run.status).toBe(200);
    expect(run.body.msg).toBe('tool said: 42');
    const record = await context.client.get(`/v1/data/${run.body.data_guid}`);
    expect(record.body.output).toBe('tool said: 42');

    const returned = await context.client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { question: '6 * 7' },
      do_not_execute_tool_calls: true,
    });
    const message = JSON.parse(returned.body.msg);
    expect(message.tool_calls).toEqual([
      {
        id: expect.any(String),
        type: 'function',
        function: { name: 'Exact_maths', arguments: '{"input":"6 * 7"}' },
      },
    ]);
  });

  it('tells the model when a skill fails, and stops Actions that call themselves', async () => {
    const broken = await createSkill({
      name: 'broken',
      type: 'http_request',
      metadata: [{ name: 'url', value: `${endpointBase}/broken` }],
    });
    const action = await createAction(context.client, {
      model: 'mock/tool',
      prompt: '{{q}}',
      skills: [broken.guid],
    });
    const run = await context.client.post(`/v1/actions/${action.guid}/prompt`, { input: { q: 'x' } });
    expect(run.body.msg).toBe('tool said: the endpoint answered 500: database on fire');

    const looping = await createAction(context.client, { model: 'mock/tool', prompt: '{{q}}' });
    const itself = await createSkill({
      name: 'itself',
      type: 'action',
      metadata: [{ name: 'action', value: looping.guid }],
    });
    await context.client.put(`/v1/actions/${looping.guid}/skills`, { skills: [itself.guid] });
    await context.client.post(`/v1/actions/${looping.guid}/deploy`, {
      version: 2,
      environment: 'production',
    });
    const loop = await context.client.post(`/v1/actions/${looping.guid}/prompt`, { input: { q: 'go' } });
    expect(loop.status).toBe(200);
    // The request's run, then three nested runs through the skill; the fourth nesting is refused.
    expect(loop.body.msg).toBe(
      `${'tool said: '.repeat(4)}skills: skills may run Actions at most 3 levels deep (an Action probably calls itself)`,
    );
  });

  it('refuses an unknown Skill GUID on an Action with a 400 naming skills', async () => {
    const response = await context.client.post('/v1/actions/create', {
      name: 'x',
      app: (await createAction(context.client)).app,
      model: 'mock/echo',
      skills: [unknownGuid],
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('skills');
  });

  it('reads and replaces an Action’s Skills and Contexts (the SDK’s routes), each change a new version', async () => {
    const action = await createAction(context.client);
    const skill = await calculator();
    expect((await context.client.get(`/v1/actions/${action.guid}/skills`)).body).toEqual([]);
    const put = await context.client.put(`/v1/actions/${action.guid}/skills`, { skills: [skill.guid] });
    expect(put.status).toBe(200);
    expect(put.body).toEqual([expect.objectContaining({ guid: skill.guid, name: 'calculator' })]);
    expect((await context.client.get(`/v1/actions/${action.guid}/skills`)).body).toEqual(put.body);
    expect((await context.client.get(`/v1/actions/${action.guid}`)).body).toMatchObject({
      version: 2,
      skills: [skill.guid],
    });
    const unknown = await context.client.put(`/v1/actions/${action.guid}/skills`, { skills: [unknownGuid] });
    expect(unknown.status).toBe(400);

    const library = await context.client.post('/v1/contexts', { name: 'Docs', description: '' });
    const contexts = await context.client.put(`/v1/actions/${action.guid}/context`, {
      context: [library.body.guid],
    });
    expect(contexts.status).toBe(200);
    expect(contexts.body).toEqual([expect.objectContaining({ guid: library.body.guid, name: 'Docs' })]);
    expect((await context.client.get(`/v1/actions/${action.guid}/context`)).body).toEqual(contexts.body);
    expect((await context.client.put(`/v1/actions/${action.guid}/context`, {})).status).toBe(400);

    const stranger = await newWorkspace(context.test);
    expect((await stranger.get(`/v1/actions/${action.guid}/skills`)).status).toBe(404);
    expect((await stranger.put(`/v1/actions/${action.guid}/skills`, { skills: [] })).status).toBe(404);
    expect((await stranger.get(`/v1/actions/${action.guid}/context`)).status).toBe(404);
  });
});
