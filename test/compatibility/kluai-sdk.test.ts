import Klu from '@kluai/core';
import { Klu as LecternKlu } from '@lectern/client/klu';
import { describe, expect, it } from 'vitest';
import { sdkKinds, useSdkWorkspace } from '../helpers/klu-sdk.js';
import { eventually } from '../helpers/test-app.js';

// The official JS SDK with KLU_ENV=dev talks to http://localhost:4000/v1; Lectern's drop-in does too, and
// takes a base URL. Both are asserted, then each test points a client at a port of its own (a local
// server on 4000 must not break them).
it('sends KLU_ENV=dev clients to http://localhost:4000/v1, the official SDK and the drop-in alike', async () => {
  const previous = process.env.KLU_ENV;
  process.env.KLU_ENV = 'dev';
  try {
    const apps = new Klu('key').apps as unknown as { getAxiosInstance(): { defaults: { baseURL?: string } } };
    expect(apps.getAxiosInstance().defaults.baseURL).toBe('http://localhost:4000/v1/apps/');
    const asked: string[] = [];
    const recording: typeof fetch = async (input) => {
      asked.push(String(input));
      return Response.json({ data: [], total_count: 0, has_next_page: false });
    };
    await new LecternKlu('key', { fetch: recording }).apps.paginator.fetchAll();
    expect(asked).toEqual(['http://localhost:4000/v1/apps/?skip=0&limit=50']);
  } finally {
    if (previous === undefined) delete process.env.KLU_ENV;
    else process.env.KLU_ENV = previous;
  }
});

// Each test runs against Klu's own SDK and against Lectern's drop-in client (@lectern/client/klu).
describe.each(sdkKinds)('with the %s SDK', (kind) => {
  const sdk = useSdkWorkspace(() => ({}), { startJobs: true, kind });

  describe('the Klu SDK interface against Lectern', () => {
    it('manages apps and Actions, prompts, streams, runs async and posts feedback', async () => {
      const app = await sdk.klu.apps.create({ name: 'SDK app', description: 'made by the SDK' } as any);
      expect(app.guid).toEqual(expect.any(String));
      expect((await sdk.klu.apps.get(app.guid)).name).toBe('SDK app');
      const apps = await sdk.klu.apps.paginator.fetchAll();
      expect(apps.map((item: any) => item.guid)).toContain(app.guid);

      const action = await sdk.klu.actions.create({
        name: 'SDK greeter',
        appId: app.guid,
        modelId: 'mock/echo',
        prompt: 'Hello {{name}}',
      } as any);
      expect(action).toMatchObject({ guid: expect.any(String), appId: app.guid, modelId: 'mock/echo' });

      const sync = await sdk.klu.actions.prompt(action.guid, { name: 'SDK' });
      expect(sync.msg).toBe('Hello SDK');
      expect(sync.feedbackUrl).toBe(`http://127.0.0.1:${sdk.port}/v1/feedback/${(sync as any).data_guid}`);

      const feedback = await sdk.klu.feedback.create({
        dataGuid: (sync as any).data_guid,
        type: 'rating',
        value: 'positive',
      } as any);
      expect(feedback).toMatchObject({
        dataGuid: (sync as any).data_guid,
        type: 'rating',
        value: 'positive',
      });
      const record = await sdk.context.client.get(`/v1/data/${(sync as any).data_guid}`);
      expect(record.body.feedback).toHaveLength(1);

      const slow = await sdk.klu.actions.create({
        name: 'SDK slow',
        appId: app.guid,
        modelId: 'mock/slow',
        prompt: '{{text}}',
      } as any);
      const streamed = await sdk.klu.actions.stream(slow.guid, { text: 'tokens arrive one at a time' });
      const tokens: string[] = [];
      for await (const token of streamed.streamingData) tokens.push(String(token));
      expect(tokens.join('')).toBe('tokens arrive one at a time');
      // mock/slow's words come 50 ms apart, so they arrive as several events; words that become ready
      // together (a busy machine) leave merged in one event (docs/streaming.md), so the count is not fixed.
      expect(tokens.length).toBeGreaterThan(1);

      const queued = await sdk.klu.actions.asyncPrompt(action.guid, { name: 'later' });
      expect(queued.msg).toBe('Running');
      const result = await eventually(async () => {
        const polled = await sdk.klu.actions.getAsyncPromptResult(queued.resultUrl!);
        return polled.status === 'SUCCESS' ? polled : undefined;
      });
      expect(result.msg).toBe('Hello later');
    });

    it('replays a stream whose tokens were all buffered before the SDK connected', async () => {
      const app = await sdk.klu.apps.create({ name: 'SDK replay' } as any);
      const action = await sdk.klu.actions.create({
        name: 'fast',
        appId: app.guid,
        modelId: 'mock/echo',
        prompt: '{{text}}',
      } as any);
      const text = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
      const streamed = await sdk.klu.actions.stream(action.guid, { text });
      // The generation is stored when the run's last token is: every token is buffered by then.
      await eventually(async () => {
        const stored = await sdk.context.client.get(`/v1/data?action=${action.guid}`);
        return stored.body.total_count === 1 ? true : undefined;
      });
      const tokens: string[] = [];
      for await (const token of streamed.streamingData) tokens.push(String(token));
      expect(tokens.join('')).toBe(text);
    });

    it('uses sessions: create, get, prompt with history, list the session’s data, delete', async () => {
      const app = await sdk.klu.apps.create({ name: 'SDK sessions' } as any);
      const action = await sdk.klu.actions.create({
        name: 'chat',
        appId: app.guid,
        modelId: 'mock/echo',
        prompt: '{{q}}',
      } as any);
      const session = await sdk.klu.sessions.create({ action: action.guid, name: 'SDK chat' } as any);
      expect(session).toMatchObject({ guid: expect.any(String), action: action.guid, name: 'SDK chat' });
      expect((await sdk.klu.sessions.get(session.guid)).name).toBe('SDK chat');

      await sdk.klu.actions.prompt(action.guid, { q: 'first' }, { session: session.guid });
      const second = await sdk.klu.actions.prompt(action.guid, { q: 'second' }, { session: session.guid });
      expect((second as any).full_prompt_sent).toEqual([
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'first' },
        { role: 'user', content: 'second' },
      ]);
      const data = await sdk.klu.sessions.getDataPaginator(session.guid).fetchAll();
      expect(data).toHaveLength(2);
      const sessions = await sdk.klu.sessions.paginator.fetchAll();
      expect(sessions.map((item: any) => item.guid)).toContain(session.guid);
      await sdk.klu.sessions.delete(session.guid);
      await expect(sdk.klu.sessions.get(session.guid)).rejects.toThrow();
    });

    it('searches a Context through the legacy singular path with the SDK’s defaults', async () => {
      const library = (
        await sdk.context.client.post('/v1/contexts', { name: 'SDK library', description: 'x' })
      ).body.guid;
      await sdk.context.client.post(`/v1/contexts/${library}/documents`, {
        content: 'Lighthouses guide ships at night.',
      });
      await sdk.context.client.post(`/v1/contexts/${library}/documents`, {
        content: 'Bakeries open early in the morning.',
      });
      // The SDK sends filter "" and metadata {} by default: no filter at all.
      const hits = await sdk.klu.contexts.search(library, 'ships lighthouse', 0, 1);
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({ content: 'Lighthouses guide ships at night.' });
    });

    it('reads and replaces an Action’s Skills and Contexts with getSkills / updateSkills / getContext / updateContext', async () => {
      const app = await sdk.klu.apps.create({ name: 'SDK skills', description: '' } as any);
      const action = await sdk.klu.actions.create({
        name: 'SDK tools',
        appId: app.guid,
        modelId: 'mock/tool',
        prompt: '{{q}}',
      } as any);
      const skill = await sdk.context.client.post('/v1/skills', { name: 'maths', type: 'calculator' });
      const library = await sdk.context.client.post('/v1/contexts', { name: 'SDK library', description: '' });

      expect(await sdk.klu.actions.getSkills(action.guid)).toEqual([]);
      await sdk.klu.actions.updateSkills(action.guid, [skill.body.guid]);
      const skills = await sdk.klu.actions.getSkills(action.guid);
      expect(skills).toEqual([
        expect.objectContaining({ guid: skill.body.guid, name: 'maths', createdAt: expect.any(String) }),
      ]);
      await sdk.klu.actions.updateContext(action.guid, [library.body.guid] as any);
      const contexts = await sdk.klu.actions.getContext(action.guid);
      expect(contexts.map((context: any) => context.guid)).toEqual([library.body.guid]);

      // Each change saved a version; deploying the latest makes the model call the Skill.
      await sdk.context.client.post(`/v1/actions/${action.guid}/deploy`, {
        version: 3,
        environment: 'production',
      });
      expect((await sdk.klu.actions.prompt(action.guid, { q: '12 * 12' })).msg).toBe('tool said: 144');
    });
  });
});
