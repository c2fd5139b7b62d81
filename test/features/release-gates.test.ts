import { describe, expect, it } from 'vitest';
import { evaluate } from '../helpers/evaluations.js';
import { signedInPerson } from '../helpers/people.js';
import { type Client, createAction, newWorkspace, useTestWorkspace } from '../helpers/test-app.js';

// Release gates (docs/evaluations.md#release-gates): a deploy to a gated environment reads the
// evidence (an evaluation of exactly that version on the dataset version the gate pinned, regressions
// against the deployed version's, approvals by other admins) in its own transaction, answers 409
// `gate_failed` with one detail per unmet condition, and an admin's `force` goes past it, audited.
const context = useTestWorkspace({}, { startJobs: true, ownJobQueue: true });

// mock/echo answers with its prompt: version 1 (`{{answer}}`) answers each item's `answer`,
// version 2 (`Paris`) answers "Paris" whatever the item: it fixes item 2 and breaks item 4.
const items = [
  { input: { answer: 'Paris' }, expected_output: 'Paris' },
  { input: { answer: 'Lyon' }, expected_output: 'Paris' },
  { input: { answer: 'Paris' }, expected_output: 'Paris' },
  { input: { answer: 'Nice' }, expected_output: 'Nice' },
];

async function setUp(client: Client) {
  const action = await createAction(client, { prompt: '{{answer}}' });
  expect((await client.put(`/v1/actions/${action.guid}`, { prompt: 'Paris' })).status).toBe(200);
  const dataset = (await client.post('/v1/datasets', { name: 'Cities' })).body.guid as string;
  await client.post(`/v1/datasets/${dataset}/items`, { items });
  const exact = (await client.post('/v1/evaluators', { name: 'Exact', type: 'exact_match' })).body
    .guid as string;
  return { action: action.guid as string, dataset, exact };
}

const deploy = (client: Client, action: string, body: Record<string, unknown>) =>
  client.post(`/v1/actions/${action}/deploy`, { environment: 'production', ...body });

describe('release gates', () => {
  it('blocks a deploy until an evaluation of that version meets min_mean', async () => {
    const { client } = context;
    const { action, dataset, exact } = await setUp(client);
    const gate = await client.put(`/v1/actions/${action}/gates/production`, {
      dataset,
      evaluators: [exact],
      min_mean: { [exact]: 0.8 },
    });
    expect(gate.status, JSON.stringify(gate.body)).toBe(200);
    expect(gate.body).toMatchObject({
      environment: 'production',
      dataset,
      evaluators: [exact],
      min_mean: { [exact]: 0.8 },
    });
    expect((await client.get(`/v1/actions/${action}/gates/production`)).body).toEqual(gate.body);

    const missing = await deploy(client, action, { version: 2 });
    expect(missing.status).toBe(409);
    expect(missing.body.error.code).toBe('gate_failed');
    expect(missing.body.error.details).toEqual([
      { condition: 'evaluation_missing', required: { dataset, dataset_version: 2, evaluators: [exact] } },
    ]);

    const evaluation = await evaluate(client, { action, version: 2, dataset, evaluators: [exact] });
    const low = await deploy(client, action, { version: 2 });
    expect(low.status).toBe(409);
    expect(low.body.error.details).toEqual([
      { condition: 'min_mean', evaluator: exact, required: 0.8, actual: 0.75, evaluation: evaluation.guid },
    ]);
    const check = await client.get(`/v1/actions/${action}/gates/production/check?version=2`);
    expect(check.body).toMatchObject({ gated: true, passed: false, version: 2 });
    expect(check.body.conditions.map((each: any) => [each.condition, each.met])).toEqual([
      ['evaluation_missing', true],
      ['min_mean', false],
    ]);
    // Another environment has no gate.
    expect((await deploy(client, action, { version: 2, environment: 'staging' })).status).toBe(200);
    expect((await client.get(`/v1/actions/${action}/gates/staging/check?version=2`)).body).toMatchObject({
      gated: false,
      passed: true,
    });

    await client.put(`/v1/actions/${action}/gates/production`, {
      dataset,
      evaluators: [exact],
      min_mean: { [exact]: 0.7 },
    });
    const deployed = await deploy(client, action, { version: 2 });
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
    expect(deployed.body.deployments.production).toBe(2);

    // The gate pinned the dataset's version when it was set: a new item changes nothing it reads…
    await client.post(`/v1/datasets/${dataset}/items`, {
      items: [{ input: { answer: 'Lille' }, expected_output: 'Lille' }],
    });
    expect((await client.get(`/v1/actions/${action}/gates/production`)).body.dataset_version).toBe(2);
    expect((await deploy(client, action, { version: 2 })).status).toBe(200);
    // …until an admin sets the gate again: then the evidence must be on the dataset's new version.
    const reset = await client.put(`/v1/actions/${action}/gates/production`, {
      dataset,
      evaluators: [exact],
      min_mean: { [exact]: 0.7 },
    });
    expect(reset.body.dataset_version).toBe(3);
    const stale = await deploy(client, action, { version: 2 });
    expect(stale.body.error.details[0]).toMatchObject({
      condition: 'evaluation_missing',
      required: { dataset_version: 3 },
    });
  });

  it('counts regressions against the deployed version’s evaluation on the same items', async () => {
    const { client } = context;
    const { action, dataset, exact } = await setUp(client);
    await client.put(`/v1/actions/${action}/gates/production`, {
      dataset,
      evaluators: [exact],
      max_regressions: 0,
    });
    await evaluate(client, { action, version: 2, dataset, evaluators: [exact] });
    // Version 1 runs in production, but nothing evaluated it: the condition cannot be met.
    const noBaseline = await deploy(client, action, { version: 2 });
    expect(noBaseline.body.error.details).toEqual([
      { condition: 'max_regressions', required: 0, actual: null },
    ]);
    const baseline = await evaluate(client, { action, version: 1, dataset, evaluators: [exact] });
    const regressed = await deploy(client, action, { version: 2 });
    expect(regressed.body.error.details).toEqual([
      { condition: 'max_regressions', required: 0, actual: 1, evaluation: baseline.guid },
    ]);
    await client.put(`/v1/actions/${action}/gates/production`, {
      dataset,
      evaluators: [exact],
      max_regressions: 1,
    });
    expect((await deploy(client, action, { version: 2 })).status).toBe(200);
  });

  it('needs approvals by admins other than the version’s author', async () => {
    const { client, test } = context;
    const { action, dataset, exact } = await setUp(client);
    await evaluate(client, { action, version: 2, dataset, evaluators: [exact] });
    await client.put(`/v1/actions/${action}/gates/production`, {
      dataset,
      evaluators: [exact],
      approvals: 1,
    });
    const unapproved = await deploy(client, action, { version: 2 });
    expect(unapproved.body.error.details).toEqual([{ condition: 'approvals', required: 1, actual: 0 }]);

    // The author of version 3 cannot approve it; a developer approves nothing; a key is no person.
    const author = await signedInPerson(test, client.workspaceGuid, 'admin');
    expect((await author.client.put(`/v1/actions/${action}`, { prompt: 'Lyon' })).status).toBe(200);
    const own = await author.client.post(`/v1/actions/${action}/versions/3/approvals`);
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/You saved version 3/);
    const developer = await signedInPerson(test, client.workspaceGuid, 'developer');
    expect((await developer.client.post(`/v1/actions/${action}/versions/2/approvals`)).status).toBe(403);
    expect((await client.post(`/v1/actions/${action}/versions/2/approvals`)).status).toBe(403);
    expect((await author.client.post(`/v1/actions/${action}/versions/9/approvals`)).status).toBe(404);

    const approved = await author.client.post(`/v1/actions/${action}/versions/2/approvals`);
    expect(approved.status).toBe(201);
    expect(approved.body.approvals).toEqual([{ user_id: author.person.id, created_at: expect.any(String) }]);
    expect((await deploy(client, action, { version: 2 })).status).toBe(200);
    // Withdrawn, it counts no more.
    expect((await author.client.delete(`/v1/actions/${action}/versions/2/approvals`)).body.approvals).toEqual(
      [],
    );
    const check = await client.get(`/v1/actions/${action}/gates/production/check?version=2`);
    expect(check.body.conditions.at(-1)).toMatchObject({ condition: 'approvals', met: false, actual: 0 });
  });

  it('lets an admin force a deploy past the gate, and the audit record says so', async () => {
    const { client, test } = context;
    const { action, dataset, exact } = await setUp(client);
    await client.put(`/v1/actions/${action}/gates/production`, {
      dataset,
      evaluators: [exact],
      min_mean: { [exact]: 1 },
    });
    const developer = await signedInPerson(test, client.workspaceGuid, 'developer');
    expect((await deploy(developer.client, action, { version: 2 })).status).toBe(409);
    const refused = await deploy(developer.client, action, { version: 2, force: true });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/^force: only an admin or an owner/);
    const admin = await signedInPerson(test, client.workspaceGuid, 'admin');
    const forced = await deploy(admin.client, action, { version: 2, force: true });
    expect(forced.status).toBe(200);
    expect(forced.body.deployments.production).toBe(2);
    const log = await client.get(
      `/v1/audit_log?action=${encodeURIComponent('POST /v1/actions/{guid}/deploy')}`,
    );
    const record = log.body.data.find((each: any) => each.resource.guid === action);
    expect(record.actor).toMatchObject({ type: 'user', guid: admin.person.id });
    expect(record.changes).toMatchObject({
      version: 2,
      force: true,
      forced_past: [{ condition: 'evaluation_missing' }],
    });
  });

  it('refuses a gate naming what the workspace lacks, or set by a developer', async () => {
    const { client, test } = context;
    const { action, dataset, exact } = await setUp(client);
    const other = await newWorkspace(test);
    const theirDataset = (await other.post('/v1/datasets', { name: 'Theirs' })).body.guid;
    const path = `/v1/actions/${action}/gates/production`;
    const refusals: [Record<string, unknown>, number, RegExp][] = [
      [{ dataset: theirDataset, evaluators: [exact] }, 404, /Dataset not found/],
      [{ dataset, evaluators: ['00000000-0000-4000-8000-000000000000'] }, 404, /Evaluator not found/],
      [
        { dataset, evaluators: [exact], min_mean: { [dataset]: 0.5 } },
        400,
        /min_mean.*is not one of the gate’s evaluators/,
      ],
      [{ dataset, evaluators: [exact], min_mean: { [exact]: 2 } }, 400, /min_mean/],
      [{ dataset, evaluators: [exact], approvals: 0 }, 400, /approvals/],
    ];
    for (const [body, status, message] of refusals) {
      const refused = await client.put(path, body);
      expect(refused.status, JSON.stringify(body)).toBe(status);
      expect(refused.body.message, JSON.stringify(body)).toMatch(message);
    }
    expect((await client.get(path)).status).toBe(404);
    const developer = await signedInPerson(test, client.workspaceGuid, 'developer');
    expect((await developer.client.put(path, { dataset, evaluators: [exact] })).status).toBe(403);
    expect((await client.put(path, { dataset, evaluators: [exact] })).status).toBe(200);
    expect((await developer.client.delete(path)).status).toBe(403);
    expect((await client.delete(path)).body).toEqual({ action, environment: 'production', deleted: true });
    expect((await deploy(client, action, { version: 2 })).status).toBe(200);
  });
});
