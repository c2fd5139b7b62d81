import { ZodError } from 'zod';
import { ServiceUnavailableError } from './errors.js';
import {
  createActionRepository,
  createActionService,
  createAttachmentValidator,
} from './features/actions/index.js';
import { createAppRepository, createAppService } from './features/apps/index.js';
import {
  createContextSourceRepository,
  createContextSourceService,
} from './features/context-sources/index.js';
import {
  contextRequirer,
  createContextPrompt,
  createContextRepository,
  createContextRetriever,
  createContextSearch,
  createContextService,
  createEmbedderResolver,
} from './features/contexts/index.js';
import { createDataService, createGenerationRepository } from './features/data/index.js';
import { createDocumentRepository, createDocumentService } from './features/documents/index.js';
import { createExperimentRepository, createExperimentService } from './features/experiments/index.js';
import { createFeedbackRepository, createFeedbackService } from './features/feedback/index.js';
import { createFileRepository, createFileService } from './features/files/index.js';
import {
  createModelResolver,
  createProviderRepository,
  createProviderService,
} from './features/providers/index.js';
import {
  createAsyncRunRepository,
  createIdempotentRequestRepository,
  createIdempotentRequests,
  createRunEngine,
  createRunService,
  type Retriever,
} from './features/runs/index.js';
import { createSessionRepository, createSessionService } from './features/sessions/index.js';
import {
  createActionRunner,
  createContextSearcher,
  createSkillRepository,
  createSkillService,
  createSkillTypes,
  skillToolSource,
} from './features/skills/index.js';
import {
  createWorkflowRepository,
  createWorkflowRunner,
  createWorkflowRunRepository,
  createWorkflowService,
} from './features/workflows/index.js';
import { createWorkspaceRepository, createWorkspaceService } from './features/workspaces/index.js';
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
  const feedback = createFeedbackService(createFeedbackRepository(database), (workspaceId, id) =>
    data.exists(workspaceId, id),
  );
  const data = createDataService(generationRepository, feedback, {
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
    feedback,
    tools,
    skills,
    workflows,
    workflowRunner,
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
