import { describe, expect, it } from 'vitest';
import { createAction, createApp, useTestWorkspace } from '../helpers/test-app.js';

// Finding 13: a template naming a file ({% include "/etc/passwd" %}) is refused when it is saved,
// with a 400 naming the field, instead of being stored and failing every run with a 500. An include
// names a snippet of the workspace (docs/prompts-as-code.md#snippets), never a path; the tags that
// only read files are refused outright.

const context = useTestWorkspace();

describe('file tags in templates', () => {
  it('are refused at save time in prompts, system messages, messages and updates', async () => {
    const { client } = context;
    const app = await createApp(client);
    const cases: Array<[Record<string, unknown>, RegExp, RegExp]> = [
      [{ prompt: '{% include "/etc/passwd" %}' }, /prompt/, /"\/etc\/passwd" is not a snippet name/],
      [{ prompt: '{% include "../../etc/passwd" %}' }, /prompt/, /is not a snippet name/],
      [{ prompt: '{% include "passwd" %}' }, /prompt/, /snippet "passwd" not found/],
      [{ prompt: 'ok', system_message: '{% render "secrets" %}' }, /system_message/, /cannot read files/],
      [
        { prompt: 'ok', messages: [{ role: 'user', content: "{% layout 'base' %}" }] },
        /messages\.0\.content/,
        /cannot read files/,
      ],
    ];
    for (const [fields, field, reason] of cases) {
      const created = await client.post('/v1/actions/create', {
        name: 'Files',
        app,
        model: 'mock/echo',
        ...fields,
      });
      expect(created.status, JSON.stringify(fields)).toBe(400);
      expect(created.body.message).toMatch(field);
      expect(created.body.message).toMatch(reason);
    }
    const action = await createAction(client);
    const updated = await client.put(`/v1/actions/${action.guid}`, { prompt: '{% include "/etc/passwd" %}' });
    expect(updated.status).toBe(400);
    const run = await client.post(`/v1/actions/${action.guid}/prompt`, { input: { name: 'still works' } });
    expect(run.status).toBe(200);
    expect(run.body.msg).toBe('Hello still works');
  });
});
