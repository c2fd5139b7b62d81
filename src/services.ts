import {
  createActionRepository,
  createActionService,
  createAttachmentValidator,
  createDeployedVersionRepository,
} from './features/authoring/actions/index.js';
import { createAppRepository, createAppService } from './features/authoring/apps/index.js';
import { createFolderRepository, createFolderService } from './features/authoring/folders/index.js';
import { createPromptService } from './features/authoring/prompts/index.js';
import {
  createContextSearcher,
  createSkillRepository,
  createSkillService,
  createSkillTypes,
  skillToolSource,
} from './features/authoring/skills/index.js';
import {
  createSnippetLibrary,
  createSnippetRepository,
  createSnippetService,
} from './features/authoring/snippets/index.js';
import { contextFinder, type McpDependencies } from './features/edges/mcp/index.js';
import {
  createWebhookDrains,
  createWebhookRepository,
  createWebhookService,
  deliveryTimeoutMs,
} from './features/edges/webhooks/index.js';
import { createAuditRepository, createAuditService } from './features/identity/audit/index.js';
import {
  createConsoleSessionRepository,
  createConsoleSessionService,
} from './features/identity/console-sessions/index.js';
import {
  createAccountService,
  createMemberService,
  createPeopleRepository,
  memberPrincipals,
} from './features/identity/people/index.js';
import { createWorkspaceRepository, createWorkspaceService } from './features/identity/workspaces/index.js';
import {
  createContextSourceRepository,
  createContextSourceService,
} from './features/knowledge/context-sources/index.js';
import {
  contextRequirer,
  createContextPrompt,
  createContextRepository,
  createContextRetriever,
  createContextSearch,
  createContextService,
  createContextTexts,
  createEmbedderResolver,
} from './features/knowledge/contexts/index.js';
import {
  createDocumentRepository,
  createDocumentSearchRepository,
  createDocumentService,
} from './features/knowledge/documents/index.js';
import { createFileRepository, createFileService } from './features/knowledge/files/index.js';
import {
  createModelResolver,
  createProviderRepository,
  createProviderService,
} from './features/models/providers/index.js';
import {
  createExportDecoder,
  createTraceRepository,
  createTraceService,
} from './features/observability/traces/index.js';
import { createDatasetRepository, createDatasetService } from './features/quality/datasets/index.js';
import {
  createComparisonRepository,
  createEvaluationRepository,
  createEvaluationService,
  createItemRunner,
} from './features/quality/evaluations/index.js';
import {
  actionJudge,
  createCheckRunner,
  createEvaluatorRepository,
  createEvaluatorService,
  embeddingSimilarity,
} from './features/quality/evaluators/index.js';
import {
  createMonitorRepository,
  createMonitorService,
  createSweepRunner,
  defaultSweepPace,
} from './features/quality/monitors/index.js';
import {
  createGateReader,
  createReleaseGateRepository,
  createReleaseGateService,
} from './features/quality/release-gates/index.js';
import { createExperimentRepository, createExperimentService } from './features/runtime/experiments/index.js';
import { createFeedbackRepository, createFeedbackService } from './features/runtime/feedback/index.js';
import {
  createGenerationRepository,
  createGenerationService,
  createScoreRepository,
  createStatisticsRepository,
  createStatisticsService,
  lastGenerationAt,
} from './features/runtime/generations/index.js';
import {
  createActionRunner,
  createAsyncRunRepository,
  createDurableRuns,
  createIdempotentRequestRepository,
  createIdempotentRequests,
  createRunEngine,
  createRunService,
  type Retriever,
} from './features/runtime/runs/index.js';
import { createSessionRepository, createSessionService } from './features/runtime/sessions/index.js';
import {
  createWorkflowRepository,
  createWorkflowRunner,
  createWorkflowRunRepository,
  createWorkflowService,
} from './features/runtime/workflows/index.js';
import { tracedCallCost } from './llm/prices.js';
import { createToolRegistry } from './llm/tool-registry.js';
import { createOutboundGuard } from './platform/outbound-guard.js';
import type { Platform } from './platform/platform.js';
import { createSharedParts } from './shared-parts.js';

/** An HTTP skill reads at most this much of a response (the model sees 16k characters of it). */
const skillResponseLimitBytes = 1024 * 1024;

/** Of a webhook receiver's answer, only the start is kept (for `last_error`). */
const webhookAnswerLimitBytes = 64 * 1024;

/** Every service, wired once per process from the platform. Rules live in the features, not here. */
export function createServices(platform: Platform) {
  const { config, secretBox, signer } = platform;
  const database = platform.database.database;
  const shared = createSharedParts(platform);
  const { jobs, vacuums, logger } = shared;
  const providerRepository = createProviderRepository(database);
  const workspaceRepository = createWorkspaceRepository(database);
  const models = createModelResolver({
    repository: providerRepository,
    secretBox,
    options: {
      fallbacks: config.providerFallbacks,
      shareEnvironmentKeys: config.shareEnvironmentProviderKeys,
      hasSingleWorkspace: () => workspaceRepository.hasSingleWorkspace(),
      mockProvider: config.mockProvider,
      providerFetch: shared.providerFetch,
    },
  });
  const apps = createAppService({ repository: createAppRepository(database) });
  const embedders = createEmbedderResolver({ models, offline: shared.offlineEmbedders });
  const contextRepository = createContextRepository(database);
  const indexer = shared.textIndexer;
  const documentSearch = createDocumentSearchRepository(database, shared.vectors);
  const documents = createDocumentService({
    repository: createDocumentRepository(database),
    search: documentSearch,
    requireContext: contextRequirer(contextRepository),
    indexer,
    embedders,
    jobs,
    vacuums,
    logger: logger('documents'),
  });
  const contexts = createContextService({
    repository: contextRepository,
    embedders,
    embeddingModelChanged: (workspaceId, contextId) => documents.reembedContext(workspaceId, contextId),
  });
  const skillRepository = createSkillRepository(database);
  const attachments = createAttachmentValidator({ contexts, skills: skillRepository });
  const prompts = createPromptService({
    deployed: createDeployedVersionRepository(database),
    broadcast: platform.broadcast,
    logger: logger('prompts'),
  });
  // Datasets, and the evaluations' evidence the release gates read: a deploy asks the gates (their
  // read side, the gate reader) before it writes.
  const generationRepository = createGenerationRepository(database);
  const datasets = createDatasetService({
    repository: createDatasetRepository(database),
    generations: generationRepository.inputsAndOutputs,
    inTransaction: platform.transactions.run,
    gatesUsing: (workspaceId, datasetId) => releaseGateRepository.gatesUsing(workspaceId, { datasetId }),
  });
  const comparisons = createComparisonRepository(database);
  const releaseGateRepository = createReleaseGateRepository(database);
  const datasetVersion = async (workspaceId: string, id: string) =>
    (await datasets.require(workspaceId, id)).version;
  const gates = createGateReader({
    repository: releaseGateRepository,
    datasetVersion,
    evidence: comparisons,
  });
  // The webhooks hear of saves and deploys in the transaction that makes them (their outbox) and
  // send them from jobs once it commits.
  const webhookRepository = createWebhookRepository(database);
  const webhookLogger = logger('webhooks');
  const webhookDrains = createWebhookDrains({
    repository: webhookRepository,
    jobs,
    fetch: shared.outboundFetch(webhookAnswerLimitBytes, deliveryTimeoutMs),
    secretBox,
    retryBaseMs: config.webhookRetryBaseMs,
    logger: webhookLogger,
  });
  const webhooks = createWebhookService({
    repository: webhookRepository,
    drains: webhookDrains,
    secretBox,
    guard: createOutboundGuard({ allow: config.outboundAllow, timeoutMs: deliveryTimeoutMs }),
    webhooksPerWorkspace: config.webhooksPerWorkspace,
    afterCommit: platform.transactions.afterCommit,
  });
  // What a version's templates include is read from the snippets, before the version is saved.
  const snippetRepository = createSnippetRepository(database);
  const snippetLibrary = createSnippetLibrary({ repository: snippetRepository });
  const snippets = createSnippetService({
    repository: snippetRepository,
    library: snippetLibrary,
    versionSaved: (workspaceId, data) => webhooks.emit(workspaceId, 'snippet.version_saved', data),
  });
  const folders = createFolderService({ repository: createFolderRepository(database) });
  // Once a deploy is committed, every node pushes it to the clients connected to it.
  const actions = createActionService({
    repository: createActionRepository(database, lastGenerationAt),
    apps,
    models,
    validateAttachments: attachments,
    resolveSnippets: snippetLibrary.resolve,
    neighbours: {
      gates,
      deploymentsChanged: (change) => void platform.transactions.afterCommit(() => prompts.announce(change)),
      events: (workspaceId, event) => webhooks.emit(workspaceId, event.type, event.data),
      whenEnded: platform.transactions.whenEnded,
      logger: logger('actions'),
    },
  });
  const sessions = createSessionService({
    repository: createSessionRepository(database),
    requireAction: actions.require,
  });
  // Feedback and edits of stored generations tell the statistics (the Dashboard's figures) which
  // finished day to sum again.
  const statistics = createStatisticsService({
    repository: createStatisticsRepository(database),
    requireAction: actions.require,
  });
  // Feedback asks when a generation was made (and so whether it exists); the generation service lists each one's feedback.
  const feedback = createFeedbackService({
    repository: createFeedbackRepository(database),
    generationCreatedAt: async (workspaceId, id) =>
      (await generationRepository.find(workspaceId, id))?.createdAt,
    changed: statistics.generationChanged,
  });
  const generations = createGenerationService({
    repository: generationRepository,
    feedback,
    owners: {
      requireApp: apps.require,
      requireAction: actions.require,
      requireSession: sessions.requireForRun,
      requireVersion: actions.savedBy,
    },
    changed: statistics.generationChanged,
    priceOf: tracedCallCost,
    // The traces service is made below: it stores traced calls as generations.
    loggedTraces: (workspaceId, calls) => traces.loggedCallTraces(workspaceId, calls),
  });
  const { baseUrl, fileLimitBytes } = config;
  const files = createFileService({
    repository: createFileRepository(database),
    blobs: platform.blobs,
    payloads: platform.payloads,
    signer,
    baseUrl,
    maximumBytes: fileLimitBytes,
  });
  const contextSources = createContextSourceService({
    repository: createContextSourceRepository(database),
    inTransaction: platform.transactions.run,
    requireContext: contexts.require,
    fetch: shared.outboundFetch(fileLimitBytes),
    documents,
    files,
    indexer,
    jobs,
    logger: logger('context-sources'),
  });
  const contextSearch = createContextSearch({ documents: documentSearch, embedders });
  const contextTexts = createContextTexts({ contexts, search: contextSearch });
  const retriever: Retriever = createContextRetriever({ contextTexts });
  // Runs and Skills need each other: a run offers its version's Skills as tools, and a Skill of
  // type `action` runs an Action through the engine. The engine takes a registry that the Skills
  // join once they are made: the one place where this file does not read top-down.
  const tools = createToolRegistry();
  const engine = createRunEngine({
    actions,
    models,
    sessions,
    generations,
    tools,
    retriever,
    tracing: platform.tracing,
  });
  const skills = createSkillService({
    repository: skillRepository,
    secretBox,
    types: createSkillTypes({
      fetch: shared.outboundFetch(skillResponseLimitBytes),
      searchContext: createContextSearcher(contextTexts),
      runAction: createActionRunner(engine),
    }),
    references: { contexts, actions },
  });
  tools.register(skillToolSource(skills));
  const workflows = createWorkflowService({
    repository: createWorkflowRepository(database),
    apps,
    findAction: actions.find,
  });
  // Async runs and workflow blocks run through jobs: queued or failed, never lost, and a generation
  // is never made twice.
  const durable = createDurableRuns({ jobs, generations, engine });
  const workflowRunner = createWorkflowRunner({
    runs: createWorkflowRunRepository(database),
    workflows,
    durable,
    jobs,
    baseUrl,
    logger: logger('workflows'),
    tracing: platform.tracing,
  });
  const runs = createRunService({
    asyncRuns: createAsyncRunRepository(database),
    engine,
    durable,
    streams: platform.streams,
    signer,
    baseUrl,
    logger: logger('runs'),
  });
  // MCP offers the deployed prompts to agents: it lists and renders them, and runs them as tools.
  const mcp: McpDependencies = {
    prompts,
    engine,
    runs,
    contextTexts,
    findContext: contextFinder(contexts),
    version: '1',
  };
  const experiments = createExperimentService({
    repository: createExperimentRepository(database),
    apps,
    requireAction: actions.require,
    sessions,
    runs,
  });
  const workspaces = createWorkspaceService({
    repository: workspaceRepository,
    options: { apiKeysPerWorkspace: platform.config.apiKeysPerWorkspace },
  });
  const peopleRepository = createPeopleRepository(database);
  const consoleSessions = createConsoleSessionService({
    repository: createConsoleSessionRepository(database),
    workspaces,
    members: memberPrincipals(peopleRepository),
    attempts: platform.attempts,
    limits: {
      idleMs: config.consoleSessionIdleMs,
      maximumMs: config.consoleSessionMaxMs,
      perKey: config.consoleSessionsPerKey,
      signInsPerMinute: config.consoleSignInsPerMinute,
    },
    logger: logger('console-sessions'),
  });
  const people = {
    repository: peopleRepository,
    baseUrl,
    mailer: platform.mailer,
    afterCommit: platform.transactions.afterCommit,
    // A removed member's or a deactivated person's keys stop at once on this node (5 s on others).
    membershipChanged: workspaces.forgetAuthentications,
    credentials: { endSessions: consoleSessions.endSessionsOf, revokeKeys: workspaces.revokeApiKeysOf },
  };
  const accounts = createAccountService({
    ...people,
    attempts: platform.attempts,
    firstWorkspaceId: async () => (await workspaceRepository.findWorkspaceByName('default'))?.id,
    logger: logger('people'),
  });
  const members = createMemberService({ ...people, logger: logger('people') });
  const audit = createAuditService({
    repository: createAuditRepository(database),
    options: { chainKey: platform.auditChainKey },
  });
  const hasAction = async (workspaceId: string, action: string) =>
    (await actions.find(workspaceId, action)) !== undefined;
  // Evaluators' patterns and schemas run on a worker thread, never on the request thread.
  const checks = createCheckRunner();
  const scoringTools = {
    // The workspace's embedder: the offline model that Contexts use by default.
    ...embeddingSimilarity((workspaceId: string) => embedders.forContext(workspaceId, null)),
    judge: actionJudge(engine),
    hasAction,
    check: checks.check,
  };
  const evaluators = createEvaluatorService({
    repository: createEvaluatorRepository(database),
    tools: scoringTools,
    gatesUsing: (workspaceId, evaluatorId) => releaseGateRepository.gatesUsing(workspaceId, { evaluatorId }),
  });
  const evaluationRepository = createEvaluationRepository(database);
  const evaluations = createEvaluationService({
    repository: evaluationRepository,
    comparisons,
    sources: {
      resolveAction: actions.resolveForRun,
      dataset: datasets.require,
      async evaluator(workspaceId, id) {
        const { name, type, config } = await evaluators.require(workspaceId, id);
        return { id, name, type, config };
      },
    },
    jobs,
    inTransaction: platform.transactions.run,
    afterCommit: platform.transactions.afterCommit,
    logger: logger('evaluations'),
  });
  const releaseGates = createReleaseGateService({
    repository: releaseGateRepository,
    actions,
    datasetVersion,
    requireEvaluator: evaluators.require,
    gates,
  });
  const monitorRepository = createMonitorRepository(database);
  const monitors = createMonitorService({
    repository: monitorRepository,
    jobs,
    requireAction: actions.require,
    requireEvaluator: evaluators.require,
    afterCommit: platform.transactions.afterCommit,
  });
  const monitorSweeps = createSweepRunner({
    repository: monitorRepository,
    scores: createScoreRepository(database),
    jobs,
    tools: scoringTools,
    evaluator: evaluators.find,
    pace: defaultSweepPace,
    logger: logger('monitors'),
  });
  // Traces from applications' OpenTelemetry exporters; their model calls become generations.
  const traces = createTraceService({
    repository: createTraceRepository(database),
    tracing: platform.tracing,
    findAction: actions.find,
    generationsInsert: generations.tracedInsert,
    generationsStored: generations.tracedStored,
    attachGenerations: generations.attachTraced,
    priceOf: tracedCallCost,
    retentionDays: config.traceRetentionDays,
  });
  const traceExports = createExportDecoder();
  // Lectern's own runs are traces of the workspace that ran them.
  platform.tracing.setSink((spans) => traces.recordOwn(spans));
  const evaluationItems = createItemRunner({
    repository: evaluationRepository,
    engine,
    jobs,
    tools: scoringTools,
    hasAction,
    inTransaction: platform.transactions.run,
    events: webhooks.emit,
    logger: logger('evaluations'),
  });
  return {
    apps,
    models,
    actions,
    snippets,
    folders,
    prompts,
    sessions,
    generations,
    feedback,
    tools,
    skills,
    workflows,
    workflowRunner,
    engine,
    runs,
    contexts,
    documents,
    files,
    contextSources,
    contextSearch,
    experiments,
    workspaces,
    accounts,
    members,
    audit,
    statistics,
    datasets,
    evaluators,
    evaluations,
    evaluationItems,
    releaseGates,
    monitors,
    monitorSweeps,
    webhooks,
    webhookDrains,
    traces,
    mcp,
    consoleSessions,
    providers: createProviderService({
      repository: providerRepository,
      secretBox,
      changed: models.invalidate,
      providerFetch: shared.providerFetch,
      mockProvider: config.mockProvider,
    }),
    idempotentRequests: createIdempotentRequests({ repository: createIdempotentRequestRepository(database) }),
    contextPrompt: createContextPrompt({ contexts, search: contextSearch, models }),
    /** OTLP export bodies, decoded off the request thread when large. */
    traceExports,
    /** Stops the worker threads (offline embedder, text indexer, checks, export decoder) and the VACUUM timer. */
    async close() {
      await checks.close();
      await traceExports.close();
      await shared.close();
    },
  };
}

export type Services = ReturnType<typeof createServices>;
