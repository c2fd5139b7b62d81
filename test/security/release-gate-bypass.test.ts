import { describe, expect, it } from 'vitest';
import { evaluate } from '../helpers/evaluations.js';
import { signedInPerson } from '../helpers/people.js';
import { type Client, createAction, useTestWorkspace } from '../helpers/test-app.js';

// A developer may not put a version the release gate refused in front of production by a side door:
// moving the Action's default environment off the gated one, editing the gate's dataset or evaluator
// and evaluating again, or renaming the gated Action and giving its slug to an ungated impostor.
// Each of those needs an admin (docs/security.md#release-gates-and-slugs).
const context = useTestWorkspace({}, { startJobs: true, ownJobQueue: true });

/** An Action whose version 2 answers "Lyon" where the dataset expects "Paris", gated on production. */
async function gatedAction(client: Client, evaluator: { type: string; config?: Record<string, unknown> }) {
  const action = await createAction(client, { prompt: 'Paris' });
  expect((await client.put(`/v1/actions/${action.guid}`, { prompt: 'Lyon' })).status).toBe(200);
  const dataset = (await client.post('/v1/datasets', { name: 'Capitals' })).body.guid as string;
  await client.post(`/v1/datasets/${dataset}/items`, {
    items: [{ input: { country: 'France' }, expected_output: 'Paris' }],
  });
  const scorer = (await client.post('/v1/evaluators', { name: 'Scorer', ...evaluator })).body.guid as string;
  const gate = await client.put(`/v1/actions/${action.guid}/gates/production`, {
    dataset,
    evaluators: [scorer],
    min_mean: { [scorer]: 1 },
  });
  expect(gate.status, JSON.stringify(gate.body)).toBe(200);
  return { action: action.guid as string, slug: action.slug as string, dataset, scorer };
}

const deployTwo = (client: Client, action: string) =>
  client.post(`/v1/actions/${action}/deploy`, { environment: 'production', version: 2 });

describe('a developer cannot route around a release gate', () => {
  it('needs an admin to move the default environment off a gated one', async () => {
    const { client, test } = context;
    const { action } = await gatedAction(client, { type: 'exact_match' });
    const developer = await signedInPerson(test, client.workspaceGuid, 'developer');
    const moved = await developer.client.put(`/v1/actions/${action}`, { default_environment: 'staging' });
    expect(moved.status).toBe(403);
    expect(moved.body.message).toMatch(/^default_environment: "production" has a release gate/);
    // Nothing was saved: the default environment and the latest version are as they were.
    const after = (await client.get(`/v1/actions/${action}`)).body;
    expect(after.default_environment).toBe('production');
    expect(after.version).toBe(2);
    // Unrelated saves still work for the developer, and the admin may move it.
    expect((await developer.client.put(`/v1/actions/${action}`, { prompt: 'Nice' })).status).toBe(200);
    const admin = await signedInPerson(test, client.workspaceGuid, 'admin');
    const byAdmin = await admin.client.put(`/v1/actions/${action}`, { default_environment: 'staging' });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.default_environment).toBe('staging');
    // From an ungated default environment, the developer moves it as before.
    const back = await developer.client.put(`/v1/actions/${action}`, { default_environment: 'canary' });
    expect(back.status).toBe(200);
  });

  it('needs an admin to delete a gated Action, and keeps the dataset and evaluator a gate reads', async () => {
    const { client, test } = context;
    const { action, slug, dataset, scorer } = await gatedAction(client, { type: 'exact_match' });
    const developer = await signedInPerson(test, client.workspaceGuid, 'developer');
    const deleted = await developer.client.delete(`/v1/actions/${action}`);
    expect(deleted.status).toBe(403);
    expect(deleted.body.message).toMatch(/has a release gate \(production\)/);
    expect((await client.get(`/v1/actions/${action}`)).status).toBe(200);

    for (const path of [`/v1/datasets/${dataset}`, `/v1/evaluators/${scorer}`]) {
      const refused = await developer.client.delete(path);
      expect(refused.status, path).toBe(409);
      expect(refused.body.error.code).toBe('used_by_release_gate');
      expect(refused.body.message).toContain(`the release gate of ${slug} in production`);
      expect((await client.get(path)).status).toBe(200);
    }
    // With the gate gone, they go like any other; the admin deletes the gated Action.
    const admin = await signedInPerson(test, client.workspaceGuid, 'admin');
    expect((await admin.client.delete(`/v1/actions/${action}`)).status).toBe(200);
    expect((await developer.client.delete(`/v1/datasets/${dataset}`)).status).toBe(200);
    expect((await developer.client.delete(`/v1/evaluators/${scorer}`)).status).toBe(200);
  });

  it('reads only evidence scored by the evaluators as the gate pinned them', async () => {
    const { client, test } = context;
    const { action, dataset, scorer } = await gatedAction(client, {
      type: 'regex',
      config: { pattern: '^Paris$' },
    });
    const developer = await signedInPerson(test, client.workspaceGuid, 'developer');
    // The developer loosens the evaluator to pass anything, and evaluates version 2 with it.
    const loosened = await developer.client.put(`/v1/evaluators/${scorer}`, { config: { pattern: '.*' } });
    expect(loosened.status, JSON.stringify(loosened.body)).toBe(200);
    const evaluation = await evaluate(developer.client, {
      action,
      version: 2,
      dataset,
      evaluators: [scorer],
    });
    expect(evaluation.summary[scorer].mean).toBe(1);
    const refused = await deployTwo(developer.client, action);
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toEqual([
      {
        condition: 'evaluation_missing',
        required: { dataset, dataset_version: 2, evaluators: [scorer] },
      },
    ]);
    // Items the developer adds to the dataset are not read either.
    await developer.client.post(`/v1/datasets/${dataset}/items`, {
      items: [{ input: { country: 'France' }, expected_output: 'Lyon' }],
    });
    await evaluate(developer.client, { action, version: 2, dataset, evaluators: [scorer] });
    expect((await deployTwo(developer.client, action)).status).toBe(409);
    // An admin who sets the gate again accepts the evaluator and the dataset as they are now.
    const admin = await signedInPerson(test, client.workspaceGuid, 'admin');
    const again = await admin.client.put(`/v1/actions/${action}/gates/production`, {
      dataset,
      evaluators: [scorer],
      min_mean: { [scorer]: 1 },
    });
    expect(again.body.dataset_version).toBe(3);
    expect((await deployTwo(developer.client, action)).status).toBe(200);
  });

  it('needs an admin to rename a gated Action, and to reuse a slug given up within 30 days', async () => {
    const { client, test } = context;
    const { action, slug } = await gatedAction(client, { type: 'exact_match' });
    const developer = await signedInPerson(test, client.workspaceGuid, 'developer');
    const renamed = await developer.client.put(`/v1/actions/${action}`, { slug: `${slug}-old` });
    expect(renamed.status).toBe(403);
    expect(renamed.body.message).toMatch(/^slug: this Action has a release gate/);
    expect((await client.get(`/v1/actions/${slug}`)).body.guid).toBe(action);

    const admin = await signedInPerson(test, client.workspaceGuid, 'admin');
    expect((await admin.client.put(`/v1/actions/${action}`, { slug: `${slug}-old` })).status).toBe(200);
    // The freed slug is reserved: the developer can neither create an impostor with it…
    const app = (await client.post('/v1/apps', { name: 'Impostors' })).body.guid as string;
    const impostor = await developer.client.post('/v1/actions/create', {
      name: 'Impostor',
      app,
      model: 'mock/echo',
      prompt: 'anything',
      slug,
    });
    expect(impostor.status).toBe(403);
    expect(impostor.body.message).toMatch(new RegExp(`^slug: "${slug}" was given up by another Action`));
    // …nor rename another Action to it, nor get it from a name.
    const ungated = await createAction(developer.client, { app, name: 'Other' });
    expect((await developer.client.put(`/v1/actions/${ungated.guid}`, { slug })).status).toBe(403);
    const fromName = await createAction(developer.client, { app, name: slug });
    expect(fromName.slug).not.toBe(slug);
    expect((await client.get(`/v1/actions/${slug}`)).status).toBe(404);
    // The Action that gave it up may take it back, and an admin may give it to another.
    const reuse = await admin.client.post('/v1/actions/create', {
      name: 'Successor',
      app,
      model: 'mock/echo',
      prompt: 'anything',
      slug,
    });
    expect(reuse.status, JSON.stringify(reuse.body)).toBe(201);
  });
});
