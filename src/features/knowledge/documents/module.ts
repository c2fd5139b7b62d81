import { createPort } from '../../../core/port.js';
import { featureModule, handles } from '../../feature-module.js';
import type { ProvidersModule } from '../../models/providers/module.js';
import type { ModuleParts } from '../../module-parts.js';
import { embedDocumentsJob } from './embedding-job.js';
import { createDocumentRepository } from './repository.js';
import { documentRoutes } from './routes.js';
import { createDocumentSearchRepository } from './search-repository.js';
import { createDocumentService, type DocumentServiceDependencies } from './service.js';

/** A Context's Documents: stored, split, embedded in the background, searched. */
export function createDocumentsModule(parts: ModuleParts, modules: { providers: ProvidersModule }) {
  const search = createDocumentSearchRepository(parts.database, parts.vectors);
  // The Contexts feature, made after (its service reads the Documents), provides the lookup.
  const requireContext = createPort<DocumentServiceDependencies['requireContext']>(
    'a Context for its Documents',
  );
  const documents = createDocumentService({
    repository: createDocumentRepository(parts.database),
    search,
    requireContext: requireContext.call,
    indexer: parts.textIndexer,
    embedders: modules.providers.shares.embedders,
    jobs: parts.jobs,
    vacuums: parts.vacuums,
    logger: parts.logger('documents'),
  });
  return featureModule({
    services: { documents },
    shares: { search },
    ports: { requireContext },
    routes: { v1: [documentRoutes(documents)] },
    jobs: [handles(embedDocumentsJob, documents.embeddingHandler)],
  });
}

export type DocumentsModule = ReturnType<typeof createDocumentsModule>;
