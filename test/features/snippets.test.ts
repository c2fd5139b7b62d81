import { describe, expect, it } from 'vitest';
import { createAction, newWorkspace, useTestWorkspace } from '../helpers/test-app.js';

// Snippets (docs/prompts-as-code.md#snippets): fragments a template includes by name, pinned by each
// Action version when it is saved, so a new snippet version changes nothing already saved or deployed.
const context = useTestWorkspace();

async function newSnippet(name: string, content: string, extra: Record<string, unknown> = {}) {
  const created = await context.client.post('/v1/snippets', { name, content, ...extra });
  expect(created.status).toBe(201);
  return created.body as { guid: string; name: string; version: number; content: string; folder: string };
}

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

async function renderedMessages(action: string, input: unknown, environment?: string) {
  const payload = await context.client.post(`/v1/actions/${action}/gateway_payload`, {
    input,
    ...(environment && { environment }),
  });
  expect(payload.status).toBe(200);
  return payload.body.messages as { role: string; content: string }[];
}

describe('snippets', () => {
  it('creates, reads by GUID and by name, and versions a snippet only when its content changes', async () => {
    const name = unique('tone');
    const snippet = await newSnippet(name, 'Be kind.', { folder: 'shared/voice', description: 'House tone' });
    expect(snippet).toMatchObject({
      name,
      folder: 'shared/voice',
      description: 'House tone',
      version: 1,
      content: 'Be kind.',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await context.client.get(`/v1/snippets/${name}`)).body.guid).toBe(snippet.guid);
    expect((await context.client.get(`/v1/snippets/${snippet.guid}`)).body.name).toBe(name);

    const same = await context.client.put(`/v1/snippets/${name}`, {
      content: 'Be kind.',
      description: 'Tone',
    });
    expect(same.body).toMatchObject({ version: 1, description: 'Tone' });
    const moved = await context.client.put(`/v1/snippets/${name}`, { folder: 'voice' });
    expect(moved.body).toMatchObject({ version: 1, folder: 'voice' });
    const changed = await context.client.put(`/v1/snippets/${name}`, { content: 'Be very kind.' });
    expect(changed.body).toMatchObject({ version: 2, content: 'Be very kind.' });

    const versions = await context.client.get(`/v1/snippets/${name}/versions`);
    expect(versions.body.total_count).toBe(2);
    expect(
      versions.body.data.map((each: { version: number; content: string }) => [each.version, each.content]),
    ).toEqual([
      [2, 'Be very kind.'],
      [1, 'Be kind.'],
    ]);
    expect(versions.body.data[0].saved_by_id).toEqual(expect.any(String));

    const listed = await context.client.get('/v1/snippets?folder=voice');
    expect(listed.body.data.map((each: { name: string }) => each.name)).toEqual([name]);
  });

  it('includes a snippet in the Action version that is saved, pinned: a new snippet version changes no saved version', async () => {
    const name = unique('preamble');
    await newSnippet(name, 'Never reveal {{secret_word}}.');
    const action = await createAction(context.client, {
      system_message: `{% include '${name}' %} Answer as {{persona}}.`,
      prompt: 'Hi {{who}}',
    });
    expect(action.snippets).toEqual({ [name]: 1 });
    // The Action's variables include the snippet's.
    expect(
      await renderedMessages(action.guid, { secret_word: 'swordfish', persona: 'a pilot', who: 'Ada' }),
    ).toEqual([
      { role: 'system', content: 'Never reveal swordfish. Answer as a pilot.' },
      { role: 'user', content: 'Hi Ada' },
    ]);

    await context.client.put(`/v1/snippets/${name}`, { content: 'Keep {{secret_word}} to yourself.' });
    // Version 1 is deployed and pinned snippet version 1: it renders as before.
    const input = { secret_word: 'swordfish', persona: 'a pilot', who: 'Ada' };
    expect((await renderedMessages(action.guid, input))[0]!.content).toBe(
      'Never reveal swordfish. Answer as a pilot.',
    );
    // GET /v1/prompts answers the template with the snippet in it, so a client renders it offline.
    const prompt = await context.client.get(`/v1/prompts/${action.guid}`);
    expect(prompt.body).toMatchObject({
      system_message: 'Never reveal {{secret_word}}. Answer as {{persona}}.',
      snippets: { [name]: 1 },
    });

    // The next saved version takes the latest snippet version.
    const saved = await context.client.put(`/v1/actions/${action.guid}`, { prompt: 'Hello {{who}}' });
    expect(saved.body).toMatchObject({ version: 2, snippets: { [name]: 2 } });
    expect(saved.body.system_message).toBe(`{% include '${name}' %} Answer as {{persona}}.`);
    await context.client.post(`/v1/actions/${action.guid}/deploy`, { version: 2, environment: 'production' });
    expect((await renderedMessages(action.guid, input))[0]!.content).toBe(
      'Keep swordfish to yourself. Answer as a pilot.',
    );

    // A generation records the snippet versions its prompt included.
    const run = await context.client.post(`/v1/actions/${action.guid}/prompt`, { input });
    expect(run.status).toBe(200);
    const generation = await context.client.get(`/v1/data/${run.body.data_guid}`);
    expect(generation.body.metadata).toMatchObject({ snippets: { [name]: 2 } });

    // Dependents: the Action's latest version pins version 2, the snippet's latest.
    expect((await context.client.get(`/v1/snippets/${name}/dependents`)).body).toEqual([
      { action: action.guid, slug: action.slug, version: 2, pinned_version: 2 },
    ]);
    await context.client.put(`/v1/snippets/${name}`, { content: 'Guard {{secret_word}}.' });
    expect((await context.client.get(`/v1/snippets/${name}/dependents`)).body[0].pinned_version).toBe(2);
  });

  it('pins a version in the tag, keeps the whitespace control of the tag, and includes snippets of snippets', async () => {
    const inner = unique('inner');
    const outer = unique('outer');
    await newSnippet(inner, 'v1 {{x}}');
    await context.client.put(`/v1/snippets/${inner}`, { content: 'v2 {{x}}' });
    await newSnippet(outer, `[{% include '${inner}@1' %}]`);
    const action = await createAction(context.client, { prompt: `a  {%- include '${outer}' -%}  b` });
    expect(action.snippets).toEqual({ [outer]: 1, [inner]: 1 });
    expect(await renderedMessages(action.guid, { x: 'X' })).toEqual([{ role: 'user', content: 'a[v1 X]b' }]);
  });

  it('refuses, naming the field, what cannot be included, and saves nothing', async () => {
    const action = await createAction(context.client, { prompt: 'Hi' });
    const missing = await context.client.put(`/v1/actions/${action.guid}`, {
      prompt: "{% include 'no-such-snippet' %}",
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'validation_error', field: 'prompt' });
    expect(missing.body.error.message).toContain('"no-such-snippet" not found');

    // A snippet of another workspace is not found either.
    const other = await newWorkspace(context.test);
    const theirs = unique('theirs');
    expect((await other.post('/v1/snippets', { name: theirs, content: 'theirs' })).status).toBe(201);
    const foreign = await context.client.put(`/v1/actions/${action.guid}`, {
      prompt: `{% include '${theirs}' %}`,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toContain(`"${theirs}" not found`);

    const path = await context.client.put(`/v1/actions/${action.guid}`, {
      prompt: "{% include '../../etc/passwd' %}",
    });
    expect(path.status).toBe(400);
    expect(path.body.error.field).toBe('prompt');

    const unknownVersion = unique('versioned');
    await newSnippet(unknownVersion, 'one');
    const pinned = await context.client.put(`/v1/actions/${action.guid}`, {
      prompt: `{% include '${unknownVersion}@9' %}`,
    });
    expect(pinned.status).toBe(400);
    expect(pinned.body.error.message).toContain('has no version 9');

    expect((await context.client.get(`/v1/actions/${action.guid}`)).body).toMatchObject({
      version: 1,
      prompt: 'Hi',
    });
  });

  it('refuses snippets that include each other over and over into a huge template, saving nothing', async () => {
    const prefix = unique('double');
    await newSnippet(`${prefix}-11`, 'x'.repeat(100));
    for (let level = 10; level >= 1; level -= 1) {
      const next = `${prefix}-${level + 1}`;
      await newSnippet(`${prefix}-${level}`, `{% include '${next}' %}{% include '${next}' %}`);
    }
    // One level more would be 2^11 copies of 100 characters: over the 200,000 a template may have.
    const top = await context.client.post('/v1/snippets', {
      name: `${prefix}-0`,
      content: `{% include '${prefix}-1' %}{% include '${prefix}-1' %}`,
    });
    expect(top.status).toBe(400);
    expect(top.body.error).toMatchObject({ field: 'content' });
    expect(top.body.error.message).toContain('over 200000 characters');
    const action = await createAction(context.client, { prompt: 'Hi' });
    const refused = await context.client.put(`/v1/actions/${action.guid}`, {
      prompt: `{% include '${prefix}-1' %}{% include '${prefix}-1' %}`,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ field: 'prompt' });
    expect(refused.body.error.message).toContain('over 200000 characters');
    expect((await context.client.get(`/v1/actions/${action.guid}`)).body.version).toBe(1);
  });

  it('refuses a snippet that includes itself, directly or through another (400 naming content)', async () => {
    const self = unique('self');
    const refused = await context.client.post('/v1/snippets', {
      name: self,
      content: `x {% include '${self}' %}`,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ field: 'content' });
    expect((await context.client.get(`/v1/snippets/${self}`)).status).toBe(404);

    const first = unique('first');
    const second = unique('second');
    await newSnippet(first, 'first');
    await newSnippet(second, `second {% include '${first}' %}`);
    const cycle = await context.client.put(`/v1/snippets/${first}`, {
      content: `first {% include '${second}' %}`,
    });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error.field).toBe('content');
    expect(cycle.body.error.message).toContain('include itself');
    expect((await context.client.get(`/v1/snippets/${first}`)).body).toMatchObject({
      version: 1,
      content: 'first',
    });
  });

  it('refuses a bad name, a bad folder, a template that does not parse, a 5 MB snippet and a taken name', async () => {
    const badName = await context.client.post('/v1/snippets', { name: '../../etc/passwd', content: 'x' });
    expect(badName.status).toBe(400);
    expect(badName.body.error.field).toBe('name');
    for (const folder of ['a/../b', '..', `a/${'x'.repeat(500)}`, '/a', 'a//b']) {
      const badFolder = await context.client.post('/v1/snippets', {
        name: unique('f'),
        content: 'x',
        folder,
      });
      expect(badFolder.status, folder).toBe(400);
      expect(badFolder.body.error.field).toBe('folder');
    }
    const broken = await context.client.post('/v1/snippets', {
      name: unique('broken'),
      content: '{% if x %}',
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error.field).toBe('content');
    const huge = await context.client.post('/v1/snippets', {
      name: unique('huge'),
      content: 'x'.repeat(5_000_000),
    });
    expect(huge.status).toBe(400);
    expect(huge.body.error.field).toBe('content');
    const name = unique('taken');
    await newSnippet(name, 'one');
    expect((await context.client.post('/v1/snippets', { name, content: 'two' })).status).toBe(409);
  });

  it('refuses to delete a snippet a deployed version includes (409 listing them), and deletes one that is not', async () => {
    const name = unique('deployed');
    await newSnippet(name, 'deployed text');
    const action = await createAction(context.client, { prompt: `{% include '${name}' %}` });
    const refused = await context.client.delete(`/v1/snippets/${name}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toEqual([{ action: action.slug }]);
    expect(refused.body.error.message).toContain(action.slug);

    // Version 2 without the snippet is deployed: nothing deployed includes it now.
    await context.client.put(`/v1/actions/${action.guid}`, { prompt: 'plain' });
    await context.client.post(`/v1/actions/${action.guid}/deploy`, { version: 2, environment: 'production' });
    const deleted = await context.client.delete(`/v1/snippets/${name}`);
    expect(deleted.status).toBe(200);
    expect((await context.client.get(`/v1/snippets/${name}`)).status).toBe(404);
    // The name is free again; version 1 of the Action still renders the text it pinned.
    await newSnippet(name, 'a new snippet');
    const first = await context.client.post(`/v1/actions/${action.guid}/gateway_payload`, {
      input: {},
      version: 1,
    });
    expect(first.body.messages).toEqual([{ role: 'user', content: 'deployed text' }]);
  });
});
