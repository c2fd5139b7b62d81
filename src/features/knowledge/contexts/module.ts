import { featureModule } from '../../feature-module.js';
import type { ProvidersModule } from '../../models/providers/module.js';
import type { ModuleParts } from '../../module-parts.js';
import type { ContextSourcesModule } from '../context-sources/module.js';
import type { DocumentsModule } from '../documents/module.js';
import type { FilesModule } from '../files/module.js';
import { createContextPrompt } from './context-prompt.js';
import { createContextRepository } from './repository.js';
import { createContextRetriever, createContextTexts } from './retriever.js';
import { contextRoutes, unversionedContextSearchRoute, workspaceContextListRoute } from './routes.js';
import { createContextSearch } from './search.js';
import { contextRequirer, createContextService } from './service.js';
import { singularContextRoutes } from './singular-routes.js';

/** Contexts (RAG): their settings, search over their Documents, and the texts a run retrieves. */
export function createContextsModule(
  parts: ModuleParts,
  modules: {
    providers: ProvidersModule;
    files: FilesModule;
    documents: DocumentsModule;
    contextSources: ContextSourcesModule;
  },
) {
  const { models } = modules.providers.services;
  const { embedders } = modules.providers.shares;
  const { documents } = modules.documents.services;
  const repository = createContextRepository(parts.database);
  const contexts = createContextService({
    repository,
    embedders,
    embeddingModelChanged: (workspaceId, contextId) => documents.reembedContext(workspaceId, contextId),
  });
  modules.documents.ports.requireContext.provide(contextRequirer(repository));
  modules.contextSources.ports.requireContext.provide(contexts.require);
  const contextSearch = createContextSearch({ documents: modules.documents.shares.search, embedders });
  const contextTexts = createContextTexts({ contexts, search: contextSearch });
  const contextPrompt = createContextPrompt({ contexts, search: contextSearch, models });
  return featureModule({
    services: { contexts, contextSearch, contextPrompt },
    shares: { contextTexts, retriever: createContextRetriever({ contextTexts }) },
    routes: {
      v1: [
        contextRoutes(contexts, contextSearch, contextPrompt),
        singularContextRoutes({
          contexts,
          documents,
          sources: modules.contextSources.services.contextSources,
          files: modules.files.services.files,
          prompt: contextPrompt,
        }),
        workspaceContextListRoute(contexts),
      ],
      unversioned: [unversionedContextSearchRoute(contexts, contextSearch)],
    },
  });
}

export type ContextsModule = ReturnType<typeof createContextsModule>;
