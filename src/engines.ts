import { createStatisticsKeeper } from './platform/database/statistics.js';
import { createGuardedFetch } from './platform/guarded-fetch.js';
import { reportingUnavailable } from './platform/jobs/reporting-unavailable.js';
import { createOutboundFetch } from './platform/outbound-fetch.js';
import type { Platform } from './platform/platform.js';
import { createOfflineEmbedder } from './retrieval/embedders/offline-embedder.js';
import { createTextIndexer } from './retrieval/text-indexer.js';
import { createVectorStore } from './retrieval/vector-store.js';

/**
 * What features share below them, built once per process from the platform and its configuration:
 * the worker threads (offline embedder, text indexer), the vector store, search statistics upkeep,
 * outbound HTTP within the configured allow-list, and the job queue as features see it.
 */
export function createEngines(platform: Platform) {
  const { config } = platform;
  const offlineEmbedder = createOfflineEmbedder();
  const textIndexer = createTextIndexer({
    timeLimitMs: config.sourceTimeLimitMs,
    maximumTextLength: config.sourceTextLimit,
  });
  const statistics = createStatisticsKeeper(platform.database, platform.logger);
  return {
    offlineEmbedder,
    textIndexer,
    statistics,
    vectors: createVectorStore(platform.database.hasVectorExtension),
    jobs: reportingUnavailable(platform.jobs),
    /** Model providers' HTTP: private addresses refused unless allowed, each call timed. */
    providerFetch: createGuardedFetch({ allow: config.outboundAllow, timeoutMs: config.fetchTimeoutMs }),
    /** Fetches of user-given URLs (files, HTTP Skills), reading at most `maximumBytes` of a body. */
    outboundFetch: (maximumBytes: number) =>
      createOutboundFetch({ allow: config.outboundAllow, maximumBytes, timeoutMs: config.fetchTimeoutMs }),
    logger: (component: string) => platform.logger.child({ component }),
    /** Stops the worker threads and the statistics timer. */
    async close() {
      statistics.close();
      await Promise.all([offlineEmbedder.close(), textIndexer.close()]);
    },
  };
}

export type Engines = ReturnType<typeof createEngines>;
