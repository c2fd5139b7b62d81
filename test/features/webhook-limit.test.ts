import { describe, expect, it } from 'vitest';
import { newWorkspace, useTestWorkspace } from '../helpers/test-app.js';

// LECTERN_WEBHOOKS_PER_WORKSPACE (docs/webhooks.md): every webhook makes each change one more
// outbound POST, so a workspace may have so many and no more, even when it creates them at once.
const context = useTestWorkspace({ LECTERN_WEBHOOKS_PER_WORKSPACE: '3' });

const create = (client: typeof context.client, index: number) =>
  client.post('/v1/webhooks', { url: `https://receiver.example.com/hook-${index}`, events: ['*'] });

describe('the webhooks of a workspace', () => {
  it('are refused past LECTERN_WEBHOOKS_PER_WORKSPACE with 409 webhook_limit, concurrent creations included', async () => {
    const client = await newWorkspace(context.test);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => create(client, index)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.body.error.code).toBe('webhook_limit');
    expect(refused[0]!.body.message).toMatch(/has 3 webhooks, the most it may have/);
    expect((await client.get('/v1/webhooks')).body.total_count).toBe(3);

    // A deleted one makes room; another workspace has its own count.
    const listed = (await client.get('/v1/webhooks')).body.data;
    expect((await client.delete(`/v1/webhooks/${listed[0].guid}`)).status).toBe(200);
    expect((await create(client, 7)).status).toBe(201);
    expect((await create(await newWorkspace(context.test), 8)).status).toBe(201);
  });
});
