import { beforeAll, describe, expect, it } from 'vitest';
import { signedInPerson } from '../helpers/people.js';
import {
  createAction,
  eventually,
  listen,
  newWorkspace,
  unknownGuid,
  useTestWorkspace,
} from '../helpers/test-app.js';

// Deployed prompts for clients that render them themselves: one Action's deployed version, all of
// them (a snapshot), and deploys pushed to connected clients over SSE.
// Three deployment event streams a workspace: the last test reaches the limit.
const context = useTestWorkspace({ LECTERN_EVENT_STREAMS_PER_WORKSPACE: '3' });
let address: string;
beforeAll(async () => {
  address = await listen(context.test);
});

/** Reads a `text/event-stream` from `url` and hands each parsed event to the test. */
async function openEvents(url: string, apiKey: string) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${apiKey}` },
    signal: controller.signal,
  });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: Array<{ event: string; data: any }> = [];
  let buffer = '';
  const waiting: Array<() => void> = [];
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name && data) events.push({ event: name, data: JSON.parse(data) });
          end = buffer.indexOf('\n\n');
        }
        for (const wake of waiting.splice(0)) wake();
      }
    } catch {
      // Aborted by the test.
    }
  })();
  return {
    events,
    /** Settles when the server ends the stream (or the test closes it). */
    ended,
    /** Waits until `count` events have arrived (the first is `ready`). */
    async until(count: number) {
      while (events.length < count) await new Promise<void>((resolve) => waiting.push(resolve));
      return events;
    },
    close: () => controller.abort(),
  };
}

describe('deployed prompts', () => {
  it('answers the version deployed to an environment, by slug or GUID, and 404 when none is', async () => {
    const action = await createAction(context.client, { slug: 'prompt-greeter', system_message: 'Be kind' });
    await context.client.put(`/v1/actions/${action.guid}`, { prompt: 'Hi {{name}}' });
    const production = await context.client.get('/v1/prompts/prompt-greeter');
    expect(production.status).toBe(200);
    expect(production.body).toMatchObject({
      action: action.guid,
      slug: 'prompt-greeter',
      environment: 'production',
      default_environment: 'production',
      version: 1,
      prompt: 'Hello {{name}}',
      system_message: 'Be kind',
      model: 'mock/echo',
      deployed_at: expect.any(String),
    });
    expect((await context.client.get(`/v1/prompts/${action.guid}?environment=staging`)).status).toBe(404);
    await context.client.post(`/v1/actions/${action.guid}/deploy`, { version: 2, environment: 'staging' });
    const staging = await context.client.get(`/v1/prompts/${action.guid}?environment=staging`);
    expect(staging.body).toMatchObject({ version: 2, prompt: 'Hi {{name}}', environment: 'staging' });

    const listed = await context.client.get('/v1/prompts?environment=staging');
    expect(listed.body).toEqual({ data: [staging.body], environment: 'staging' });

    expect((await context.client.get(`/v1/prompts/${unknownGuid}`)).status).toBe(404);
    const other = await newWorkspace(context.test);
    expect((await other.get('/v1/prompts/prompt-greeter')).status).toBe(404);
    expect((await other.get(`/v1/prompts/${action.guid}`)).status).toBe(404);
    expect((await other.get('/v1/prompts')).body.data).toEqual([]);
    const bad = await context.client.get('/v1/prompts/prompt-greeter?environment=no%20spaces');
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('querystring.environment');
  });

  it('lets a runner key (an application’s) read deployed prompts', async () => {
    await createAction(context.client, { slug: 'runner-reads' });
    const key = await context.client.post('/v1/api_keys', { name: 'app', role: 'runner' });
    const runner = { ...context.client, apiKey: key.body.api_key };
    const response = await fetch(`${address}/v1/prompts/runner-reads`, {
      headers: { authorization: `Bearer ${runner.apiKey}` },
    });
    expect(response.status).toBe(200);
  });

  it('pushes deploys, and Actions disabled, to the workspace’s connected clients only', async () => {
    const action = await createAction(context.client, { slug: 'pushed' });
    await context.client.put(`/v1/actions/${action.guid}`, { prompt: 'Version two {{name}}' });
    expect((await fetch(`${address}/v1/deployments/events`)).status).toBe(401);
    const mine = await openEvents(`${address}/v1/deployments/events`, context.client.apiKey);
    const other = await newWorkspace(context.test);
    const theirs = await openEvents(`${address}/v1/deployments/events`, other.apiKey);
    await mine.until(1);
    await theirs.until(1);
    expect(mine.events[0]).toEqual({ event: 'ready', data: {} });

    await context.client.post(`/v1/actions/${action.guid}/deploy`, { version: 2, environment: 'production' });
    const [, deployed] = await mine.until(2);
    expect(deployed).toMatchObject({
      event: 'deployment',
      data: {
        action: action.guid,
        slug: 'pushed',
        environment: 'production',
        version: 2,
        prompt: 'Version two {{name}}',
      },
    });
    await context.client.post(`/v1/actions/${action.guid}/disable`);
    const [, , removed] = await mine.until(3);
    expect(removed).toEqual({
      event: 'removed',
      data: { action: action.guid, slug: 'pushed', environment: 'production' },
    });
    // The other workspace heard nothing but its own `ready`.
    await other.post('/v1/apps', { name: 'a change of its own' });
    expect(theirs.events).toEqual([{ event: 'ready', data: {} }]);
    mine.close();
    theirs.close();
  });

  it('refuses a workspace’s event stream past its limit with a 429, and no other workspace’s', async () => {
    const client = await newWorkspace(context.test);
    const open: Awaited<ReturnType<typeof openEvents>>[] = [];
    for (let index = 0; index < 3; index += 1) {
      const stream = await openEvents(`${address}/v1/deployments/events`, client.apiKey);
      await stream.until(1);
      open.push(stream);
    }
    const refused = await fetch(`${address}/v1/deployments/events`, {
      headers: { authorization: `Bearer ${client.apiKey}` },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as any).error.code).toBe('too_many_event_streams');
    const other = await newWorkspace(context.test);
    const theirs = await openEvents(`${address}/v1/deployments/events`, other.apiKey);
    await theirs.until(1);
    // A closed stream frees its place.
    open.pop()!.close();
    const again = await eventually(async () => {
      const response = await fetch(`${address}/v1/deployments/events`, {
        headers: { authorization: `Bearer ${client.apiKey}` },
      });
      if (response.status === 200) return response;
      await response.body?.cancel();
      return undefined;
    });
    await again.body?.cancel();
    for (const stream of [...open, theirs]) stream.close();
  });

  it('ends an event stream once its key is revoked, or its key’s maker leaves the workspace', async () => {
    const { test } = context;
    const client = await newWorkspace(test);
    const revokedKey = await client.post('/v1/api_keys', { name: 'watcher', role: 'viewer' });
    const revoked = await openEvents(`${address}/v1/deployments/events`, revokedKey.body.api_key);
    await revoked.until(1);
    const { person, client: developer } = await signedInPerson(test, client.workspaceGuid, 'developer');
    const madeKey = await developer.post('/v1/api_keys', { name: 'laptop', role: 'runner' });
    const departing = await openEvents(`${address}/v1/deployments/events`, madeKey.body.api_key);
    await departing.until(1);
    const staying = await openEvents(`${address}/v1/deployments/events`, client.apiKey);
    await staying.until(1);

    expect((await client.delete(`/v1/api_keys/${revokedKey.body.guid}`)).status).toBe(200);
    expect((await client.delete(`/v1/members/${person.id}`)).status).toBe(200);
    // The server ends both (it asks every 2 s, past every cache, so every node sees it).
    await revoked.ended;
    await departing.ended;
    // The workspace's own stream goes on, and hears the next deploy.
    const action = await createAction(client, { slug: 'after-revocation' });
    await client.put(`/v1/actions/${action.guid}`, { prompt: 'two' });
    await client.post(`/v1/actions/${action.guid}/deploy`, { version: 2, environment: 'production' });
    await eventually(async () => staying.events.find((each) => each.data?.slug === 'after-revocation'));
    staying.close();
  }, 30_000);
});
