import { createPort } from '../../../core/port.js';
import { featureModule, handles } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { DocumentsModule } from '../documents/module.js';
import type { FilesModule } from '../files/module.js';
import { processContextSourceJob } from './processing-job.js';
import { createContextSourceRepository } from './repository.js';
import { contextSourceRoutes } from './routes.js';
import { type ContextSourceServiceDependencies, createContextSourceService } from './service.js';

/** A Context's sources (a URL, an uploaded file): fetched, split and kept as Documents. */
export function createContextSourcesModule(
  parts: ModuleParts,
  modules: { documents: DocumentsModule; files: FilesModule },
) {
  // The Contexts feature, made after (its singular routes read the sources), provides the lookup.
  const requireContext =
    createPort<ContextSourceServiceDependencies['requireContext']>('a Context for its sources');
  const contextSources = createContextSourceService({
    repository: createContextSourceRepository(parts.database),
    inTransaction: parts.platform.transactions.run,
    requireContext: requireContext.call,
    fetch: parts.outboundFetch(parts.config.fileLimitBytes),
    documents: modules.documents.services.documents,
    files: modules.files.services.files,
    indexer: parts.textIndexer,
    jobs: parts.jobs,
    logger: parts.logger('context-sources'),
  });
  return featureModule({
    services: { contextSources },
    ports: { requireContext },
    routes: { v1: [contextSourceRoutes(contextSources)] },
    jobs: [handles(processContextSourceJob, contextSources.processingHandler)],
  });
}

export type ContextSourcesModule = ReturnType<typeof createContextSourcesModule>;
