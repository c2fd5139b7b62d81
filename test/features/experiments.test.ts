import { describe, expect, it } from 'vitest';
import {
  createAction,
  createApp,
  eventually,
  newWorkspace,
  unknownGuid,
  useTestWorkspace,
} from '../helpers/test-app.js';

const context = useTestWorkspace({}, { startJobs: true });

async function experimentFixture(split?: number) {
  const { client } = context;
  const app = await createApp(client);
  const primary = await createAction(client, { app, name: 'Primary', prompt: 'A {{q}}' });
  const secondary = await createAction(client, { app, name: 'Secondary', prompt: 'B {{q}}' });
  const created = await client.post('/v1/experiments', {
    name: 'Greeting test',
    app_guid: app,
    action_primary_guid: primary.guid,
    action_secondary_guid: secondary.guid,
    ...(split === undefined ? {} : { split }),
  });
  expect(created.status).toBe(201);
  return { app, primary, secondary, experiment: created.body };
}

describe('experiments', () => {
  it('creates, reads, updates, lists and deletes with the SDK field names', async () => {
    const { client } = context;
    const { app, primary, secondary, experiment } = await experimentFixture();
    expect(experiment).toMatchObject({
      guid: expect.any(String),
      name: 'Greeting test',
      app_guid: app,
      action_primary_guid: primary.guid,
      action_secondary_guid: secondary.guid,
      split: 0.5,
      status: 'running',
    });
    expect((await client.get(`/v1/experiments/${experiment.guid}`)).body.name).toBe('Greeting test');
    const updated = await client.put(`/v1/experiments/${experiment.guid}`, { split: 0.2, name: 'Renamed' });
    expect(updated.body).toMatchObject({ split: 0.2, name: 'Renamed', action_primary_guid: primary.guid });
    expect((await client.put(`/v1/experiments/${experiment.guid}`, { split: 2 })).status).toBe(400);
    const list = await client.get('/v1/experiments');
    expect(list.body.data.some((item: { guid: string }) => item.guid === experiment.guid)).toBe(true);
    expect((await client.delete(`/v1/experiments/${experiment.guid}`)).status).toBe(200);
    expect((await client.get(`/v1/experiments/${experiment.guid}`)).status).toBe(404);
  });

  it('refuses unknown or identical arms and hides experiments from other workspaces', async () => {
    const { client } = context;
    const app = await createApp(client);
    const action = await createAction(client, { app });
    const same = await client.post('/v1/experiments', {
      name: 'x',
      app_guid: app,
      action_primary_guid: action.guid,
      action_secondary_guid: action.guid,
    });
    expect(same.status).toBe(400);
    expect(same.body.message).toMatch(/^action_secondary_guid:/);
    const unknown = await client.post('/v1/experiments', {
      name: 'x',
      app_guid: app,
      action_primary_guid: action.guid,
      action_secondary_guid: unknownGuid,
    });
    expect(unknown.status).toBe(404);
    const { experiment } = await experimentFixture();
    const other = await newWorkspace(context.test);
    expect((await other.get(`/v1/experiments/${experiment.guid}`)).status).toBe(404);
    expect((await other.post(`/v1/experiments/${experiment.guid}/prompt`, { input: 'x' })).status).toBe(404);
  });

  it('assigns stickily per extUserId, follows the split, and honours force_action', async () => {
    const { client } = context;
    const { primary, secondary, experiment } = await experimentFixture(0.5);
    const url = `/v1/experiments/${experiment.guid}/prompt`;
    const first = await client.post(url, { input: { q: 'hi' }, extUserId: 'user-7' });
    expect(first.status).toBe(200);
    expect(first.body.feedback_url).toBe(`http://lectern.test/v1/feedback/${first.body.data_guid}`);
    for (let index = 0; index < 5; index += 1) {
      const again = await client.post(url, { input: { q: 'hi' }, extUserId: 'user-7' });
      expect(again.body.action).toBe(first.body.action);
    }
    expect(first.body.msg).toBe(first.body.action === primary.guid ? 'A hi' : 'B hi');

    const arms = new Set<string>();
    for (let index = 0; index < 40; index += 1) {
      arms.add((await client.post(url, { input: { q: 'x' }, extUserId: `user-${index}` })).body.action);
    }
    expect(arms).toEqual(new Set([primary.guid, secondary.guid]));

    const allSecondary = await experimentFixture(1);
    const routed = await client.post(`/v1/experiments/${allSecondary.experiment.guid}/prompt`, {
      input: { q: 'x' },
    });
    expect(routed.body).toMatchObject({
      action: allSecondary.secondary.guid,
      variant: 'secondary',
      msg: 'B x',
    });
    const forced = await client.post(`/v1/experiments/${allSecondary.experiment.guid}/prompt`, {
      input: { q: 'x' },
      force_action: allSecondary.primary.guid,
    });
    expect(forced.body).toMatchObject({ action: allSecondary.primary.guid, variant: 'primary', msg: 'A x' });
    const outsider = await client.post(url, { input: { q: 'x' }, force_action: unknownGuid });
    expect(outsider.status).toBe(400);
  });

  it('sends every run to the primary while paused, and to the declared winner once completed', async () => {
    const { client } = context;
    const { primary, secondary, experiment } = await experimentFixture(1);
    const url = `/v1/experiments/${experiment.guid}/prompt`;
    const armsOf = async (count: number) => {
      const arms = new Set<string>();
      for (let index = 0; index < count; index += 1) {
        arms.add((await client.post(url, { input: { q: 'x' }, extUserId: `user-${index}` })).body.action);
      }
      return arms;
    };
    expect(await armsOf(3)).toEqual(new Set([secondary.guid]));
    await client.put(`/v1/experiments/${experiment.guid}`, { status: 'paused' });
    expect(await armsOf(10)).toEqual(new Set([primary.guid]));
    // A paused experiment still runs an arm asked for by name.
    const forced = await client.post(url, { input: { q: 'x' }, force_action: secondary.guid });
    expect(forced.body.action).toBe(secondary.guid);
    const declared = await client.put(`/v1/experiments/${experiment.guid}`, {
      status: 'completed',
      split: 1,
    });
    expect(declared.body).toMatchObject({ status: 'completed', split: 1 });
    expect(await armsOf(10)).toEqual(new Set([secondary.guid]));
  });

  it('runs in stream and async modes, and uses a session’s own Action', async () => {
    const { client } = context;
    const { secondary, experiment } = await experimentFixture(0);
    const url = `/v1/experiments/${experiment.guid}/prompt`;
    const streamed = await client.post(url, { input: { q: 's' }, streaming: true });
    expect(streamed.body).toMatchObject({ streaming: true, streaming_url: expect.any(String) });
    const queued = await client.post(url, { input: { q: 'a' }, async_mode: true });
    const done = await eventually(async () => {
      const poll = await client.get(queued.body.result_url.replace('http://lectern.test', ''));
      return poll.body.status === 'SUCCESS' ? poll.body : undefined;
    });
    expect(done.msg).toBe('A a');
    const session = (await client.post('/v1/sessions', { action: secondary.guid })).body;
    const inSession = await client.post(url, { input: { q: 'c' }, session: session.guid });
    expect(inSession.body).toMatchObject({ action: secondary.guid, msg: 'B c' });
  });

  it('reports runs and feedback per arm, with the positive rating rate and its 95% interval', async () => {
    const { client } = context;
    const { primary, secondary, experiment } = await experimentFixture();
    const url = `/v1/experiments/${experiment.guid}/prompt`;
    const rate = async (action: string, values: string[]) => {
      for (const value of values) {
        const run = await client.post(url, { input: { q: 'r' }, force_action: action });
        await client.post(`/v1/feedback/${run.body.data_guid}`, { type: 'rating', value });
      }
    };
    await rate(primary.guid, ['positive', 'positive', 'positive', 'negative']);
    await rate(secondary.guid, ['negative', 'negative']);
    await client.post(url, { input: { q: 'r' }, force_action: secondary.guid });

    const results = await client.get(`/v1/experiments/${experiment.guid}/results`);
    expect(results.status).toBe(200);
    const [first, second] = results.body.arms;
    expect(first).toMatchObject({
      variant: 'primary',
      action: primary.guid,
      runs: 4,
      feedback: { rating: { positive: 3, negative: 1 } },
      positive_rating: { value: 'positive', rate: 0.75, trials: 4 },
    });
    expect(first.positive_rating.low).toBeCloseTo(0.3006, 3);
    expect(first.positive_rating.high).toBeCloseTo(0.9544, 3);
    expect(second).toMatchObject({
      runs: 3,
      feedback: { rating: { negative: 2 } },
      positive_rating: { rate: 0 },
    });
  });
});
