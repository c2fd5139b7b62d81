import { createToolRegistry } from '../../../llm/tool-registry.js';
import type { ActionsModule } from '../../authoring/actions/module.js';
import type { SkillsModule } from '../../authoring/skills/module.js';
import { featureModule, handles } from '../../feature-module.js';
import type { ContextsModule } from '../../knowledge/contexts/module.js';
import type { ProvidersModule } from '../../models/providers/module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { GenerationsModule } from '../generations/module.js';
import type { SessionsModule } from '../sessions/module.js';
import { createAsyncRunRepository } from './async-run-repository.js';
import { createDurableRuns } from './durable-runs.js';
import { createRunEngine } from './engine.js';
import { createIdempotentRequests } from './idempotency.js';
import { createIdempotentRequestRepository } from './idempotent-request-repository.js';
import { runRoutes } from './routes.js';
import { asyncRunJob, createRunService } from './service.js';
import { createActionRunner } from './skill-runner.js';
import { streamRoutes } from './stream-routes.js';

/** Runs of an Action: sync, streamed (a one-time URL) and async (a job), and the engine under them. */
export function createRunsModule(
  parts: ModuleParts,
  modules: {
    providers: ProvidersModule;
    contexts: ContextsModule;
    skills: SkillsModule;
    actions: ActionsModule;
    sessions: SessionsModule;
    generations: GenerationsModule;
  },
) {
  const { platform, config } = parts;
  const { generations } = modules.generations.services;
  // A run offers its version's Skills as tools; a Skill of type `action` runs an Action here.
  const tools = createToolRegistry();
  tools.register(modules.skills.shares.toolSource);
  const engine = createRunEngine({
    actions: modules.actions.services.actions,
    models: modules.providers.services.models,
    sessions: modules.sessions.services.sessions,
    generations,
    tools,
    retriever: modules.contexts.shares.retriever,
    tracing: platform.tracing,
  });
  modules.skills.ports.runAction.provide(createActionRunner(engine));
  // Async runs and workflow blocks run through jobs: queued or failed, never lost, and a generation
  // is never made twice.
  const durable = createDurableRuns({ jobs: parts.jobs, generations, engine });
  const runs = createRunService({
    asyncRuns: createAsyncRunRepository(parts.database),
    engine,
    durable,
    streams: platform.streams,
    signer: platform.signer,
    baseUrl: config.baseUrl,
    logger: parts.logger('runs'),
  });
  const idempotentRequests = createIdempotentRequests({
    repository: createIdempotentRequestRepository(parts.database),
  });
  return featureModule({
    services: { tools, engine, runs, idempotentRequests },
    shares: { durable },
    routes: { v1: [runRoutes(runs, idempotentRequests)], open: [streamRoutes(runs)] },
    jobs: [handles(asyncRunJob, runs.asyncRunHandler)],
    // Streamed generations keep running after their client leaves; let them store their output.
    close: () => runs.drain(),
  });
}

export type RunsModule = ReturnType<typeof createRunsModule>;
