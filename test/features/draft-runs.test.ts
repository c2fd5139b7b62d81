import { expect, it } from 'vitest';
import {
  atAddress,
  createAction,
  listen,
  newWorkspace,
  parseEvents,
  useTestWorkspace,
} from '../helpers/test-app.js';

// POST /v1/actions/{guid}/prompt with `draft`: the playground runs unsaved edits over the latest
// version, checked as a save is, saving nothing but the generation (which has no version number).
const context = useTestWorkspace();

it('runs a draft over the latest version without saving it, and stores its generation without a version', async () => {
  const { client } = context;
  const action = await createAction(client, { prompt: 'Hello {{name}}', model_config: { temperature: 0.2 } });
  const run = await client.post(`/v1/actions/${action.guid}/prompt`, {
    input: { name: 'Ada', mood: 'cheerful' },
    draft: { prompt: 'Greet {{name}} in a {{mood}} way', system_message: 'Be brief.' },
  });
  expect(run.status, JSON.stringify(run.body)).toBe(200);
  expect(run.body.msg).toBe('Greet Ada in a cheerful way');
  expect(run.body.full_prompt_sent).toEqual([
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Greet Ada in a cheerful way' },
  ]);
  const record = await client.get(`/v1/data/${run.body.data_guid}`);
  expect(record.body).toMatchObject({
    action: action.guid,
    version: null,
    environment: null,
    source: 'sync',
  });

  // Nothing was saved: one version, the old template, still deployed.
  const versions = await client.get(`/v1/actions/${action.guid}/versions`);
  expect(versions.body.total_count).toBe(1);
  const saved = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'Ada' } });
  expect(saved.body.msg).toBe('Hello Ada');
});

it('streams a draft like a saved version', async () => {
  const { client, test } = { client: context.client, test: context.test };
  const action = await createAction(client);
  const address = await listen(test);
  const started = await client.post(`/v1/actions/${action.guid}/prompt`, {
    input: { name: 'Grace' },
    streaming: true,
    draft: { prompt: 'Bonjour {{name}}' },
  });
  expect(started.status).toBe(200);
  const events = parseEvents(await (await fetch(atAddress(started.body.streaming_url, address))).text());
  const text = events
    .filter((event) => event.data.startsWith('{'))
    .map((event) => JSON.parse(event.data).token)
    .join('');
  expect(text).toBe('Bonjour Grace');
  expect(events.at(-1)!.data).toBe('END_STREAM');
});

it('refuses a bad draft with 400 naming its field under draft, and stores nothing', async () => {
  const { client } = context;
  const action = await createAction(client);
  const refused = async (draft: unknown, extra: object = {}) => {
    const response = await client.post(`/v1/actions/${action.guid}/prompt`, {
      input: { name: 'x' },
      draft,
      ...extra,
    });
    expect(response.status).toBe(400);
    return response.body.message as string;
  };
  expect(await refused({ prompt: 'Hello {{name' })).toMatch(/^draft\.prompt: /);
  expect(await refused({ model: 'nowhere/model' })).toMatch(/^draft\.model: /);
  expect(await refused({ temperature: 1 })).toMatch(/draft/);
  expect(await refused({ prompt: 'x' }, { version: 1 })).toMatch(/^draft: /);
  // An async run is pinned to a saved version when it is queued: a draft runs now or not at all.
  expect(await refused({ prompt: 'x' }, { async_mode: true })).toMatch(/^draft: .*async_mode/);
  const foreign = await newWorkspace(context.test);
  const secret = await foreign.post('/v1/contexts', { name: 'secret', description: '' });
  expect(await refused({ contexts: [secret.body.guid] })).toMatch(/^draft\.contexts/);
  const records = await client.get(`/v1/data?action=${action.guid}`);
  expect(records.body.total_count).toBe(0);
});
