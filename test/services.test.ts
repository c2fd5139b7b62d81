import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import type { FeatureModule } from '../src/features/feature-module.js';
import { feedbackBody } from '../src/features/runtime/feedback/schemas.js';
import { createDurableRuns } from '../src/features/runtime/runs/index.js';
import { runInputFromWire } from '../src/features/runtime/runs/run-input.js';
import { runBody } from '../src/features/runtime/runs/schemas.js';
import type { JobDefinition } from '../src/platform/jobs/job-queue.js';
import { createPlatform, type Platform } from '../src/platform/platform.js';
import { createModules, type Modules, type Services, servicesOf } from '../src/services.js';
import { testModelCacheDirectory } from './helpers/model-cache.js';
import { openTestDatabase, temporaryDirectory } from './helpers/test-app.js';

// The composition root alone, without Fastify: every service is built, the callbacks that tie
// features together (data ↔ feedback, sessions → actions, skills → contexts and actions) reach
// the right service, and close() lets the process end.
let platform: Platform;
let services: Services;
let modules: Modules;

beforeAll(async () => {
  const config = loadConfig({
    LECTERN_DATA_DIR: temporaryDirectory(),
    LECTERN_MODEL_CACHE_DIR: testModelCacheDirectory,
    LECTERN_BASE_URL: 'http://lectern.test',
  });
  const database = await openTestDatabase();
  platform = await createPlatform(config, pino({ level: 'silent' }), { database, ownsDatabase: true });
  const built = createModules(platform);
  modules = built.modules;
  services = servicesOf(built);
});
afterAll(async () => {
  await services.close();
  await platform.close();
});

it('builds every service the routes and workers use', () => {
  expect(Object.keys(services).sort()).toEqual(
    [
      'accounts',
      'actions',
      'apps',
      'audit',
      'close',
      'contextPrompt',
      'contextSearch',
      'consoleSessions',
      'contextSources',
      'contexts',
      'datasets',
      'documents',
      'engine',
      'evaluationItems',
      'evaluations',
      'evaluators',
      'experiments',
      'feedback',
      'files',
      'folders',
      'generations',
      'idempotentRequests',
      'members',
      'mcp',
      'models',
      'monitorSweeps',
      'monitors',
      'prompts',
      'providers',
      'releaseGates',
      'reviewQueues',
      'reviewReports',
      'reviewRuleSweeps',
      'reviewRules',
      'reviewing',
      'runs',
      'sessions',
      'skills',
      'snippets',
      'statistics',
      'tools',
      'traceExports',
      'traces',
      'webhookDrains',
      'webhooks',
      'workflowRunner',
      'workflows',
      'workspaces',
    ].sort(),
  );
});

it('runs an Action through the wired chain: the run is recorded, and feedback finds its record', async () => {
  const created = await services.workspaces.createWorkspace('wiring');
  const key = await services.workspaces.authenticate(created.apiKey);
  const workspaceId = key!.workspace.id;
  const app = await services.apps.create(workspaceId, { name: 'wiring' });
  const action = await services.actions.create(workspaceId, {
    appId: app.id,
    name: 'echo',
    version: { model: 'mock/echo', prompt: '{{text}}' },
  });
  const caller = { workspaceId, allowModelOverrides: true };
  const answer = await services.runs.run(
    caller,
    action.action.id,
    runInputFromWire(runBody.parse({ input: { text: 'wired' } })),
    'sync',
  );
  expect(answer).toMatchObject({ msg: 'wired' });
  const generationId = (answer as { data_guid: string }).data_guid;
  expect(await services.generations.find(workspaceId, generationId)).toMatchObject({ output: 'wired' });
  const feedback = await services.feedback.create(
    workspaceId,
    key!.principal.key!.id,
    generationId,
    feedbackBody.parse({ type: 'rating', value: 'good' }),
  );
  expect((await services.generations.get(workspaceId, generationId)).feedback).toEqual([
    expect.objectContaining({ id: feedback.id }),
  ]);
  // Another workspace sees none of it.
  const other = await services.workspaces.authenticate(
    (await services.workspaces.createWorkspace('x')).apiKey,
  );
  expect(await services.generations.find(other!.workspace.id, generationId)).toBeUndefined();
  await expect(
    services.feedback.create(
      other!.workspace.id,
      other!.principal.key!.id,
      generationId,
      feedbackBody.parse({ type: 'rating', value: 'good' }),
    ),
  ).rejects.toThrow(/not found/i);
});

it('wires every job a feature exports to one handler, each kind once', async () => {
  // The jobs the features define, found in what their index.ts exports: a job kind added to a
  // feature and left out of its module's `jobs` fails here.
  const exported = new Set<string>();
  const features = readdirSync(new URL('../src/features/', import.meta.url), { withFileTypes: true })
    .filter((wing) => wing.isDirectory())
    .flatMap((wing) =>
      readdirSync(new URL(`../src/features/${wing.name}/`, import.meta.url)).map(
        (name) => `${wing.name}/${name}`,
      ),
    );
  for (const feature of features) {
    const index = new URL(`../src/features/${feature}/index.ts`, import.meta.url).pathname;
    if (!existsSync(index)) continue;
    const exports: Record<string, unknown> = await import(index);
    for (const value of Object.values(exports)) {
      const job = value as Partial<JobDefinition<unknown>> | null;
      if (
        typeof job === 'object' &&
        job !== null &&
        typeof job.name === 'string' &&
        typeof job.lane === 'string'
      )
        exported.add(job.name);
    }
  }
  const list: FeatureModule[] = Object.values(modules);
  const registrations = list.flatMap((module) => module.jobs ?? []);
  const wired = registrations.map((registration) => registration.definition.name);
  expect(exported.size).toBeGreaterThanOrEqual(6);
  expect(wired.sort()).toEqual([...exported].sort());
  for (const registration of registrations) expect(registration.processor).toBeTypeOf('function');
});

it('never makes a durable run’s generation twice: a stored one is the answer, and no model is called', async () => {
  const created = await services.workspaces.createWorkspace('durable');
  const workspaceId = (await services.workspaces.authenticate(created.apiKey))!.workspace.id;
  const app = await services.apps.create(workspaceId, { name: 'durable' });
  const { action } = await services.actions.create(workspaceId, {
    appId: app.id,
    name: 'echo',
    version: { model: 'mock/echo', prompt: '{{text}}' },
  });
  const durable = createDurableRuns({
    jobs: platform.jobs,
    generations: services.generations,
    engine: services.engine,
  });
  const caller = { workspaceId, allowModelOverrides: false };
  const generationId = randomUUID();
  const signal = new AbortController().signal;
  const options = { generationId, source: 'async' as const };
  const generate = async (text: string) =>
    (
      await durable.generate(
        caller,
        action.id,
        runInputFromWire(runBody.parse({ input: { text } })),
        options,
        signal,
      )
    ).output;
  const first = await generate('first');
  // Delivered again (a crashed attempt, a duplicate): with other input the echo would differ.
  const again = await generate('again');
  expect([first, again]).toEqual(['first', 'first']);
  const listed = await services.generations.find(workspaceId, generationId);
  expect(listed).toMatchObject({ output: 'first' });
});
