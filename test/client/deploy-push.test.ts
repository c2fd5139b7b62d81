import { Lectern } from '@lectern/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSdkWorkspace } from '../helpers/klu-sdk.js';
import { createAction, eventually } from '../helpers/test-app.js';

// The service pushes deploys to connected clients (`GET /v1/deployments/events`): 50 clients serving
// an Action's prompt from their caches (a time to live of an hour, so nothing but the push can change
// them) all serve the new version soon after a deploy, within 2 s at the 95th percentile.
const sdk = useSdkWorkspace();
const clients: Lectern[] = [];

beforeAll(() => {
  for (let index = 0; index < 50; index += 1) {
    clients.push(
      new Lectern({
        baseUrl: `http://127.0.0.1:${sdk.port}`,
        apiKey: sdk.context.client.apiKey,
        prompts: { ttlMs: 3_600_000 },
      }),
    );
  }
});
afterAll(() => Promise.all(clients.map((client) => client.close())));

describe('deploys pushed to connected clients', () => {
  it('reach 50 clients, each serving the new version, p95 under 2 s', async () => {
    const action = await createAction(sdk.context.client, { slug: 'pushed-everywhere', prompt: 'one {{x}}' });
    await sdk.context.client.put(`/v1/actions/${action.guid}`, { prompt: 'two {{x}}' });
    for (const client of clients) expect((await client.prompts.get('pushed-everywhere')).version).toBe(1);
    // Each client opened its push connection with its first get: wait until the service confirmed all 50.
    await eventually(async () => (clients.every((client) => client.prompts.subscribed) ? true : undefined));

    const deployedAt = performance.now();
    const reached: number[] = [];
    const watchers = clients.map(async (client) => {
      await eventually(
        async () => (client.prompts.getCached('pushed-everywhere')?.version === 2 ? true : undefined),
        10_000,
      );
      reached.push(performance.now() - deployedAt);
    });
    await sdk.context.client.post(`/v1/actions/${action.guid}/deploy`, {
      version: 2,
      environment: 'production',
    });
    await Promise.all(watchers);
    reached.sort((a, b) => a - b);
    const p95 = reached[Math.ceil(reached.length * 0.95) - 1]!;
    expect(reached).toHaveLength(50);
    expect(p95).toBeLessThan(2_000);
    const rendered = await (await clients[0]!.prompts.get('pushed-everywhere')).render({ x: 'y' });
    expect(rendered.messages).toEqual([{ role: 'user', content: 'two y' }]);
  }, 60_000);
});
