import { expect, it } from 'vitest';
import { createApp, newWorkspace, startTestApp } from '../helpers/test-app.js';

// Finding 5: an operator can turn the mock provider off (LECTERN_MOCK_PROVIDER=off); Actions naming
// it are then refused when saved and when run, with a 400 naming the model.

it('refuses mock models when LECTERN_MOCK_PROVIDER=off', async () => {
  const test = await startTestApp({ LECTERN_MOCK_PROVIDER: 'off' });
  try {
    const client = await newWorkspace(test);
    const app = await createApp(client);
    const created = await client.post('/v1/actions/create', {
      name: 'Mock',
      app,
      model: 'mock/echo',
      prompt: 'hi',
    });
    expect(created.status).toBe(400);
    expect(created.body.message).toMatch(/model: the mock provider is turned off/);
    const provider = await client.post('/v1/providers', { provider: 'openai', key: 'sk-real' });
    const real = await client.post('/v1/actions/create', {
      name: 'Real',
      app,
      model: 'openai/gpt-4o-mini',
      prompt: 'hi',
    });
    expect(real.status, JSON.stringify(real.body)).toBe(201);
    const overridden = await client.post(`/v1/actions/${real.body.guid}/prompt`, {
      input: 'hi',
      modelOptions: { provider: 'mock', model: 'echo' },
    });
    expect(overridden.status).toBe(400);
    expect(overridden.body.message).toMatch(/mock provider is turned off/);
    expect(provider.status).toBe(201);
    // The console offers the kinds the service lists: the mock is not among them.
    const kinds = await client.get('/v1/providers/kinds');
    expect(kinds.body.data.map((kind: { name: string }) => kind.name)).not.toContain('mock');
  } finally {
    await test.close();
  }
});
