import { createPort } from '../core/port.js';
import type { WebhookEventType } from '../core/wire-values.js';
import { createVacuumScheduler } from '../platform/database/vacuum-scheduler.js';
import { createGuardedFetch } from '../platform/guarded-fetch.js';
import { reportingUnavailable } from '../platform/jobs/reporting-unavailable.js';
import { createOutboundFetch } from '../platform/outbound-fetch.js';
import type { Platform } from '../platform/platform.js';
import { createSentenceEncoderEmbedder } from '../retrieval/embedders/offline-embedder.js';
import { createWordVectorEmbedder } from '../retrieval/embedders/word-vector-embedder.js';
import { createTextIndexer } from '../retrieval/text-indexer.js';
import { createVectorStore } from '../retrieval/vector-store.js';

/**
 * What happened in a workspace that its webhooks may tell (a deploy, a saved version, a finished
 * evaluation). Features below the webhooks emit it, inside the transaction that makes the change;
 * the webhooks module provides it (docs/architecture.md#modules).
 */
export type WorkspaceEvents = (
  workspaceId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
) => Promise<void>;

/**
 * What every feature module is made from: the platform, and the parts the features share below
 * them, built once per process: the worker threads (offline embedders, text indexer), the vector
 * store, the embedded database's VACUUM scheduler, outbound HTTP within the configured allow-list,
 * the job queue as features see it, and the workspace events.
 */
export function createModuleParts(platform: Platform) {
  const { config } = platform;
  // Both offline models start their worker thread on first use: an idle service holds no weights.
  const offlineEmbedders = [
    createWordVectorEmbedder({ cacheDirectory: config.modelCacheDirectory }),
    createSentenceEncoderEmbedder(config.embeddingThreads),
  ];
  const textIndexer = createTextIndexer({
    timeLimitMs: config.sourceTimeLimitMs,
    maximumTextLength: config.sourceTextLimit,
  });
  const vacuums = createVacuumScheduler(platform.database, platform.logger);
  return {
    platform,
    config,
    database: platform.database.database,
    offlineEmbedders,
    textIndexer,
    vacuums,
    vectors: createVectorStore(platform.database.hasVectorExtension),
    jobs: reportingUnavailable(platform.jobs),
    events: createPort<WorkspaceEvents>('workspace events'),
    /** Model providers' HTTP: private addresses refused unless allowed, each call timed. */
    providerFetch: createGuardedFetch({ allow: config.outboundAllow, timeoutMs: config.fetchTimeoutMs }),
    /** Fetches of user-given URLs (files, HTTP Skills), reading at most `maximumBytes` of a body. */
    outboundFetch: (maximumBytes: number, timeoutMs = config.fetchTimeoutMs) =>
      createOutboundFetch({ allow: config.outboundAllow, maximumBytes, timeoutMs }),
    logger: (component: string) => platform.logger.child({ component }),
    /** Stops the worker threads and the VACUUM timer. */
    async close() {
      vacuums.close();
      await Promise.all([...offlineEmbedders.map((embedder) => embedder.close()), textIndexer.close()]);
    },
  };
}

export type ModuleParts = ReturnType<typeof createModuleParts>;
