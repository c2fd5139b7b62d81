import { ZodError } from 'zod';
import { ServiceUnavailableError } from './errors.js';
import { createAttachmentPresenters, createAttachmentValidator } from './features/actions/attachments.js';
import { createActionRepository } from './features/actions/repository.js';
import { createActionService } from './features/actions/service.js';
import { createAppRepository } from './features/apps/repository.js';
import { createAppService } from './features/apps/service.js';
import { createContextSourceRepository } from './features/context-sources/repository.js';
import { createContextSourceService } from './features/context-sources/service.js';
import { createContextPrompt } from './features/contexts/context-prompt.js';
import { createEmbedderResolver } from './features/contexts/embedders.js';
import { createContextRepository } from './features/contexts/repository.js';
import { createContextRetriever } from './features/contexts/retriever.js';
import { createContextSearch } from './features/contexts/search.js';
import { contextRequirer, createContextService } from './features/contexts/service.js';
import { createGenerationRepository } from './features/data/repository.js';
import { createDataService } from './features/data/service.js';
import { createDocumentRepository } from './features/documents/repository.js';
import { createDocumentService } from './features/documents/service.js';
import { createExperimentRepository } from './features/experiments/repository.js';
import { createExperimentService } from './features/experiments/service.js';
import { createFeedbackRepository } from './features/feedback/repository.js';
import { createFeedbackService } from './features/feedback/service.js';
import { createFileRepository } from './features/files/repository.js';
import { createFileService } from './features/files/service.js';
import { createModelResolver } from './features/providers/model-resolution.js';
import { createProviderRepository } from './features/providers/repository.js';
import { createProviderService } from './features/providers/service.js';
import { createAsyncRunRepository } from './features/runs/async-run-repository.js';
import { createRunEngine, type Retriever } from './features/runs/engine.js';
import { createIdempotentRequests } from './features/runs/idempotency.js';
import { createIdempotentRequestRepository } from './features/runs/idempotent-request-repository.js';
import { createRunService } from './features/runs/service.js';
import { createSessionRepository } from './features/sessions/repository.js';
import { createSessionService } from './features/sessions/service.js';
import { createActionRunner, createContextSearcher } from './features/skills/adapters.js';
import { createSkillRepository } from './features/skills/repository.js';
import { createSkillService } from './features/skills/service.js';
import { createSkillTypes } from './features/skills/skill-types.js';
import { skillToolSource } from './features/skills/tool-source.js';
import { createWorkflowRepository } from './features/workflows/repository.js';
import { createWorkflowRunRepository } from './features/workflows/run-repository.js';
import { createWorkflowRunner } from './features/workflows/runner.js';
import { createWorkflowService } from './features/workflows/service.js';
import { createWorkspaceRepository } from './features/workspaces/repository.js';
import { createWorkspaceService } from './features/workspaces/service.js';
import { createToolRegistry } from './llm/tool-registry.js';
import { createStatisticsKeeper } from './platform/database/statistics.js';
import { createGuardedFetch } from './platform/guarded-fetch.js';
import type { JobQueue } from './platform/jobs/job-queue.js';
import { createOutboundFetch } from './platform/outbound-fetch.js';
import type { Platform } from './platform/platform.js';
import { createOfflineEmbedder } from './retrieval/embedders/offline-embedder.js';
import { createTextIndexer } from './retrieval/text-indexer.js';
import { createVectorStore } from './retrieval/vector-store.js';

/** An HTTP skill reads at most this much of a response (the model sees 16k characters of it). */
const skillResponseLimitBytes = 1024 * 1024;

/** Every service, wired once per process from the platform. */
/**
 * The job queue as features use it: a queue that cannot take a job (Redis or the database away) is a
 * 503 the client may retry, not a 500. A payload the definition refuses stays a programming error.
 */
function reportingUnavailable(jobs: JobQueue): JobQueue {
  return {
    ...jobs,
    async enqueue(definition, payload, options) {
      try {
        return await jobs.enqueue(definition, payload, options);
      } catch (error) {
        if (error instanceof ZodError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        throw new ServiceUnavailableError('queue_unavailable', `The job queue is unavailable: ${message}`);
      }
    },
  };
}

export function createServices(platform: Platform) {
  const database = platform.database.database;
  const jobs = reportingUnavailable(platform.jobs);
  const providerRepository = createProviderRepository(database);
  const workspaceRepository = createWorkspaceRepository(database);
  const models = createModelResolver(providerRepository, platform.secretBox, {
    fallbacks: platform.config.providerFallbacks,
    shareEnvironmentKeys: platform.config.shareEnvironmentProviderKeys,
    hasSingleWorkspace: () => workspaceRepository.hasSingleWorkspace(),
    mockProvider: platform.config.mockProvider,
    providerFetch: createGuardedFetch({
      allow: platform.config.outboundAllow,
      timeoutMs: platform.config.fetchTimeoutMs,
    }),
  });
  const apps = createAppService(createAppRepository(database));
  const offlineEmbedder = createOfflineEmbedder();
  const embedders = createEmbedderResolver(models, offlineEmbedder);
  const vectors = createVectorStore(database, platform.database.hasVectorExtension);
  const contextRepository = createContextRepository(database);
  const statistics = createStatisticsKeeper(platform.database, platform.logger);
  const textIndexer = createTextIndexer({
    timeLimitMs: platform.config.sourceTimeLimitMs,
    maximumTextLength: platform.config.sourceTextLimit,
  });
  const documents = createDocumentService({
    repository: createDocumentRepository(database),
    requireContext: contextRequirer(contextRepository),
    indexer: textIndexer,
    embedders,
    vectors,
    jobs,
    statistics,
    logger: platform.logger.child({ component: 'documents' }),
  });
  const contexts = createContextService({
    repository: contextRepository,
    embedders,
    embeddingModelChanged: (workspaceId, contextId) => documents.reembedContext(workspaceId, contextId),
  });
  const skillRepository = createSkillRepository(database);
  const actions = createActionService(
    createActionRepository(database),
    apps,
    models,
    createAttachmentValidator({ contexts, skills: skillRepository }),
  );
  const findAction = (workspaceId: string, guidOrSlug: string) => actions.find(workspaceId, guidOrSlug);
  const requireAction = (workspaceId: string, actionId: string) => actions.require(workspaceId, actionId);
  const sessions = createSessionService(createSessionRepository(database), requireAction);
  const generationRepository = createGenerationRepository(database);
  const feedbackRepository = createFeedbackRepository(database);
  const data = createDataService(generationRepository, feedbackRepository, {
    async requireApp(workspaceId, appId) {
      await apps.require(workspaceId, appId);
    },
    requireAction,
    async requireSession(workspaceId, sessionId, actionId) {
      if (actionId) await sessions.requireForRun(workspaceId, sessionId, actionId);
      else await sessions.require(workspaceId, sessionId);
    },
  });
  const files = createFileService({
    repository: createFileRepository(database),
    blobs: platform.blobs,
    signer: platform.signer,
    baseUrl: platform.config.baseUrl,
    maximumBytes: platform.config.fileLimitBytes,
  });
  const contextSources = createContextSourceService({
    repository: createContextSourceRepository(database),
    requireContext: contexts.require,
    documents,
    files,
    fetch: createOutboundFetch({
      allow: platform.config.outboundAllow,
      maximumBytes: platform.config.fileLimitBytes,
      timeoutMs: platform.config.fetchTimeoutMs,
    }),
    indexer: textIndexer,
    jobs,
    logger: platform.logger.child({ component: 'context-sources' }),
  });
  const contextSearch = createContextSearch({ database, vectors, embedders });
  const retriever: Retriever = createContextRetriever(contexts, contextSearch);
  const tools = createToolRegistry();
  const engine = createRunEngine({ actions, models, sessions, data, tools, retriever });
  const skills = createSkillService({
    repository: skillRepository,
    secretBox: platform.secretBox,
    types: createSkillTypes({
      fetch: createOutboundFetch({
        allow: platform.config.outboundAllow,
        maximumBytes: skillResponseLimitBytes,
        timeoutMs: platform.config.fetchTimeoutMs,
      }),
      searchContext: createContextSearcher(contexts, contextSearch),
      runAction: createActionRunner(engine),
    }),
    references: {
      async contextExists(workspaceId, contextId) {
        return (await contexts.findMany(workspaceId, [contextId])).length > 0;
      },
      async actionGuid(workspaceId, guidOrSlug) {
        return (await findAction(workspaceId, guidOrSlug))?.guid;
      },
    },
  });
  tools.register(skillToolSource(skills));
  const workflows = createWorkflowService({
    repository: createWorkflowRepository(database),
    apps,
    findAction,
  });
  const workflowRunner = createWorkflowRunner({
    workflows,
    runs: createWorkflowRunRepository(database),
    engine,
    data,
    jobs,
    baseUrl: platform.config.baseUrl,
    logger: platform.logger.child({ component: 'workflows' }),
  });
  const runs = createRunService({
    engine,
    data,
    asyncRuns: createAsyncRunRepository(database),
    jobs,
    streams: platform.streams,
    signer: platform.signer,
    baseUrl: platform.config.baseUrl,
    logger: platform.logger.child({ component: 'runs' }),
  });
  return {
    workspaces: createWorkspaceService(workspaceRepository),
    apps,
    providers: createProviderService(providerRepository, platform.secretBox, models.invalidate),
    models,
    actions,
    sessions,
    data,
    feedback: createFeedbackService(feedbackRepository, generationRepository),
    tools,
    skills,
    workflows,
    workflowRunner,
    attachments: createAttachmentPresenters({ skills, contexts }),
    engine,
    runs,
    idempotentRequests: createIdempotentRequests(createIdempotentRequestRepository(database)),
    contexts,
    documents,
    files,
    contextSources,
    contextSearch,
    contextPrompt: createContextPrompt({ contexts, search: contextSearch, models }),
    /** Stops the worker threads (offline embedder, text indexer) and the statistics timer. */
    close: async () => {
      statistics.close();
      await Promise.all([offlineEmbedder.close(), textIndexer.close()]);
    },
    experiments: createExperimentService({
      repository: createExperimentRepository(database),
      apps,
      requireAction,
      sessions,
      runs,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
