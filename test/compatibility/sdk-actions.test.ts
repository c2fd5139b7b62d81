import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sdkKinds, useSdkWorkspace } from '../helpers/klu-sdk.js';
import { eventually } from '../helpers/test-app.js';

// Every method of @kluai/core@0.0.46's apps, actions, data, feedback, sessions and experiments
// clients, called through the SDK against a listening Lectern (docs/sdk-compatibility.md).
// Each test runs against Klu's own SDK and against Lectern's drop-in client (@lectern/client/klu).
describe.each(sdkKinds)('with the %s SDK', (kind) => {
  const sdk = useSdkWorkspace(() => ({}), { startJobs: true, kind });

  async function appAndAction(model = 'mock/echo', prompt = 'Hello {{name}}') {
    const app = await sdk.klu.apps.create({
      name: 'SDK app',
      appType: 'chat',
      description: 'made by the SDK',
    });
    const action = await sdk.klu.actions.create({
      name: `SDK ${model}`,
      appId: app.guid,
      modelId: model,
      prompt,
      actionType: 'prompt',
    });
    return { app, action };
  }

  describe('apps', () => {
    it('create, get, update, paginator, getActions, getData and delete', async () => {
      const { app, action } = await appAndAction();
      expect(app).toMatchObject({ name: 'SDK app', appType: 'chat', description: 'made by the SDK' });
      expect(await sdk.klu.apps.get(app.guid)).toMatchObject({ guid: app.guid, appType: 'chat' });
      const updated = await sdk.klu.apps.update(app.guid, { name: 'Renamed', appType: 'agent' } as never);
      expect(updated).toMatchObject({ name: 'Renamed', appType: 'agent' });
      expect((await sdk.klu.apps.paginator.fetchAll()).map((item) => item.guid)).toContain(app.guid);

      const actions = await sdk.klu.apps.getActions(app.guid);
      expect(actions.map((item) => item.guid)).toEqual([action.guid]);
      expect(actions[0]).toMatchObject({ appId: app.guid, modelId: 'mock/echo' });
      await sdk.klu.actions.prompt(action.guid, { name: 'app data' });
      const data = await sdk.klu.apps.getData(app.guid);
      expect(data).toEqual([expect.objectContaining({ output: 'Hello app data', actionGuid: action.guid })]);

      expect(await sdk.klu.apps.delete(app.guid)).toMatchObject({ guid: app.guid, deleted: true });
      await expect(sdk.klu.apps.get(app.guid)).rejects.toThrow(/was not found/);
      await expect(sdk.klu.apps.getActions(app.guid)).rejects.toThrow(/was not found/);
    });
  });

  describe('actions', () => {
    it('create (with the SDK’s camelCase modelConfig), get, update, paginator, versions, deploy, disable, delete', async () => {
      const app = await sdk.klu.apps.create({ name: 'SDK actions', appType: 'chat' });
      const action = await sdk.klu.actions.create({
        name: 'Configured',
        appId: app.guid,
        modelId: 'mock/echo',
        prompt: 'Say {{x}}',
        actionType: 'prompt',
        systemMessage: 'Be brief',
        modelConfig: { temperature: 0.2, topP: 0.9, maxResponseLength: 64, numRetries: 1 },
      });
      expect(action).toMatchObject({
        appId: app.guid,
        modelId: 'mock/echo',
        systemMessage: 'Be brief',
        modelConfig: { temperature: 0.2, top_p: 0.9, max_response_length: 64, num_retries: 1 },
      });
      expect((await sdk.klu.actions.get(action.guid)).name).toBe('Configured');
      const updated = await sdk.klu.actions.update(action.guid, { prompt: 'Tell {{x}}' } as never);
      expect(updated).toMatchObject({ version: 2, prompt: 'Tell {{x}}' });
      expect((await sdk.klu.actions.paginator.fetchAll()).map((item) => item.guid)).toContain(action.guid);

      const versions = await sdk.klu.actions.getVersions(action.guid);
      expect((versions as unknown as { version: number }[]).map((version) => version.version)).toEqual([
        2, 1,
      ]);
      await sdk.klu.actions.deploy(action.guid, 2 as never, 'production');
      expect((await sdk.klu.actions.prompt(action.guid, { x: 'v2' })).msg).toBe('Tell v2');
      await sdk.klu.actions.disable(action.guid);
      await expect(sdk.klu.actions.prompt(action.guid, { x: 'off' })).rejects.toThrow(/400/);
      // Errors carry the SDK's names; the drop-in's keep Lectern's status and code too.
      await expect(sdk.klu.actions.prompt(action.guid, { x: 'off' })).rejects.toMatchObject({
        name: 'BadRequestAPIError',
      });

      expect(await sdk.klu.actions.delete(action.guid)).toMatchObject({ guid: action.guid, deleted: true });
      await expect(sdk.klu.actions.get(action.guid)).rejects.toThrow(/was not found/);
      await expect(sdk.klu.actions.get(action.guid)).rejects.toMatchObject({ name: 'InstanceNotFoundError' });
      const gone = await sdk.klu.actions.prompt(action.guid, { x: 'gone' }).catch((error: unknown) => error);
      expect(gone).toMatchObject({ name: 'ActionNotFoundError' });
      if (kind === 'lectern') expect(gone).toMatchObject({ status: 404, code: 'not_found' });
    });

    it('refuses a modelConfig field it has no use for, naming it', async () => {
      const app = await sdk.klu.apps.create({ name: 'SDK refusal', appType: 'chat' });
      const refused = await sdk.context.client.post('/v1/actions/create', {
        name: 'bias',
        app: app.guid,
        model: 'mock/echo',
        prompt: 'x',
        model_config: { logitBias: [1] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/logitBias/);
    });

    it('prompt, stream, asyncPrompt with getAsyncPromptResult, and getData with actionGuid on every record', async () => {
      const { action } = await appAndAction('mock/slow', '{{text}}');
      const sync = await sdk.klu.actions.prompt(action.guid, { text: 'one two' });
      expect(sync).toMatchObject({ msg: 'one two', feedbackUrl: expect.stringContaining('/v1/feedback/') });

      const streamed = await sdk.klu.actions.stream(action.guid, { text: 'streamed through the sdk' });
      let text = '';
      for await (const token of streamed.streamingData) text += token;
      expect(text).toBe('streamed through the sdk');

      const queued = await sdk.klu.actions.asyncPrompt(action.guid, { text: 'in the background' });
      const result = await eventually(async () => {
        const polled = await sdk.klu.actions.getAsyncPromptResult(queued.resultUrl);
        return polled.status === 'SUCCESS' ? polled : undefined;
      });
      expect(result.msg).toBe('in the background');

      const data = await eventually(async () => {
        const records = await sdk.klu.actions.getData(action.guid);
        return records.length === 3 ? records : undefined;
      });
      expect(data.every((record) => record.actionGuid === action.guid)).toBe(true);
    });

    it('playground answers 501 not_supported, naming what to do instead', async () => {
      await expect(sdk.klu.actions.playground('Hi', 1)).rejects.toThrow(/501/);
      const direct = await sdk.context.client.post('/v1/actions/playground', { prompt: 'Hi', modelId: 1 });
      expect(direct.status).toBe(501);
      expect(direct.body.error.code).toBe('not_supported');
      expect(direct.body.message).toMatch(/without an Action.*POST \/v1\/actions\/create/);
    });

    it('getSkills, updateSkills, getContext, updateContext', async () => {
      const { action } = await appAndAction('mock/tool', '{{q}}');
      const skill = await sdk.context.client.post('/v1/skills', { name: 'maths', type: 'calculator' });
      await sdk.klu.actions.updateSkills(action.guid, [skill.body.guid]);
      expect(
        (await sdk.klu.actions.getSkills(action.guid)).map((item) => (item as { guid?: string }).guid),
      ).toEqual([skill.body.guid]);
      const library = await sdk.klu.contexts.create({ name: 'lib', description: '' });
      await sdk.klu.actions.updateContext(action.guid, [library.guid] as never);
      expect(
        (await sdk.klu.actions.getContext(action.guid)).map((item) => (item as { guid?: string }).guid),
      ).toEqual([library.guid]);
    });
  });

  describe('data and feedback', () => {
    it('data: create (the SDK’s body), get with actionGuid, update, delete', async () => {
      const { action } = await appAndAction();
      const created = await sdk.klu.data.create({
        actionGuid: action.guid,
        input: 'question',
        output: 'answer',
        systemMessage: 'You answer',
        fullPromptSent: 'question',
        numInputTokens: 1,
        numOutputTokens: 1,
        model: 'gpt-test',
        modelProvider: 'openai',
        metadata: { team: 'support' },
      });
      expect(created).toMatchObject({
        actionGuid: action.guid,
        output: 'answer',
        metadata: { team: 'support', source: 'SDK' },
        fullPromptSent: [
          { role: 'system', content: 'You answer' },
          { role: 'user', content: 'question' },
        ],
      });
      const read = await sdk.klu.data.get(created.guid);
      expect(read).toMatchObject({ actionGuid: action.guid, modelProvider: 'openai', feedback: [] });
      const updated = await sdk.klu.data.update(created.guid, {
        output: 'better answer',
        metadata: { reviewed: true },
      });
      expect(updated).toMatchObject({ output: 'better answer', metadata: { reviewed: true, source: 'SDK' } });
      await expect(
        // A GUID of no Action in this workspace (a fresh one, so it can never equal the real one).
        sdk.klu.data.update(created.guid, { actionGuid: randomUUID() }),
      ).rejects.toThrow(/400/);
      expect((await sdk.klu.data.delete(created.guid)).guid).toBe(created.guid);
      await expect(sdk.klu.data.get(created.guid)).rejects.toThrow(/was not found/);
    });

    it('feedback: create, get, update, delete (then gone from the record)', async () => {
      const { action } = await appAndAction();
      const run = (await sdk.klu.actions.prompt(action.guid, { name: 'rated' })) as { data_guid?: string };
      const created = await sdk.klu.feedback.create({
        dataGuid: run.data_guid!,
        type: 'rating',
        value: 'positive',
        metadata: { via: 'sdk' },
      });
      expect(created).toMatchObject({ dataGuid: run.data_guid, type: 'rating', metadata: { via: 'sdk' } });
      expect(await sdk.klu.feedback.get(created.guid)).toMatchObject({
        guid: created.guid,
        value: 'positive',
      });
      const updated = await sdk.klu.feedback.update(created.guid, {
        dataGuid: run.data_guid!,
        value: 'negative',
      });
      expect(updated).toMatchObject({ value: 'negative', metadata: { via: 'sdk' } });
      expect((await sdk.klu.feedback.delete(created.guid)).deleted).toBe(true);
      await expect(sdk.klu.feedback.get(created.guid)).rejects.toThrow(/was not found/);
      expect((await sdk.klu.data.get(run.data_guid!)).feedback).toEqual([]);
    });
  });

  describe('sessions and experiments', () => {
    it('sessions: create, get, paginator, delete; update is refused by the SDK itself', async () => {
      const { action } = await appAndAction();
      const session = await sdk.klu.sessions.create({
        action: action.guid,
        name: 'chat',
        extUserId: 'user-1',
      });
      expect(await sdk.klu.sessions.get(session.guid)).toMatchObject({ name: 'chat', action: action.guid });
      expect((await sdk.klu.sessions.paginator.fetchAll()).map((item) => item.guid)).toContain(session.guid);
      await expect((sdk.klu.sessions as unknown as { update(): Promise<unknown> }).update()).rejects.toThrow(
        /not yet supported/,
      );
      await sdk.klu.sessions.delete(session.guid);
      await expect(sdk.klu.sessions.get(session.guid)).rejects.toThrow(/was not found/);
    });

    it('experiments: create, get, update, prompt, stream, asyncPrompt with its result, delete', async () => {
      const { app, action: primary } = await appAndAction('mock/echo', 'A {{name}}');
      const secondary = await sdk.klu.actions.create({
        name: 'B',
        appId: app.guid,
        modelId: 'mock/echo',
        prompt: 'B {{name}}',
        actionType: 'prompt',
      });
      const experiment = await sdk.klu.experiments.create({
        name: 'A/B',
        appGuid: app.guid,
        actionPrimaryGuid: primary.guid,
        actionSecondaryGuid: secondary.guid,
      });
      expect(experiment).toMatchObject({ appGuid: app.guid, actionPrimaryGuid: primary.guid });
      expect((await sdk.klu.experiments.get(experiment.guid)).name).toBe('A/B');
      expect((await sdk.klu.experiments.update(experiment.guid, { name: 'A/B 2' })).name).toBe('A/B 2');

      const forced = await sdk.klu.experiments.prompt(
        experiment.guid,
        { name: 'x' },
        { forceAction: secondary.guid },
      );
      expect(forced.msg).toBe('B x');
      const streamed = await sdk.klu.experiments.stream(
        experiment.guid,
        { name: 'y' },
        { forceAction: primary.guid },
      );
      let text = '';
      for await (const token of streamed.streamingData) text += token;
      expect(text).toBe('A y');
      const queued = await sdk.klu.experiments.asyncPrompt(
        experiment.guid,
        { name: 'z' },
        { forceAction: primary.guid },
      );
      const result = await eventually(async () => {
        const polled = await sdk.klu.experiments.getAsyncPromptResult(queued.resultUrl);
        return polled.status === 'SUCCESS' ? polled : undefined;
      });
      expect(result.msg).toBe('A z');
      await sdk.klu.experiments.delete(experiment.guid);
      await expect(sdk.klu.experiments.get(experiment.guid)).rejects.toThrow(/was not found/);
    });
  });
});
