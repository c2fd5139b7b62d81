import { featureModule } from '../../feature-module.js';
import type { WorkspacesModule } from '../../identity/workspaces/module.js';
import type { ModuleParts } from '../../module-parts.js';
import { createEmbedderResolver } from './embedders.js';
import { createModelResolver } from './model-resolution.js';
import { createProviderRepository } from './repository.js';
import { providerRoutes, workspaceModelListRoute } from './routes.js';
import { createProviderService } from './service.js';

/** Providers and the models a run or a Context resolves through them (chat and embedding). */
export function createProvidersModule(parts: ModuleParts, modules: { workspaces: WorkspacesModule }) {
  const { config, platform } = parts;
  const repository = createProviderRepository(parts.database);
  const models = createModelResolver({
    repository,
    secretBox: platform.secretBox,
    options: {
      fallbacks: config.providerFallbacks,
      shareEnvironmentKeys: config.shareEnvironmentProviderKeys,
      hasSingleWorkspace: modules.workspaces.shares.hasSingleWorkspace,
      mockProvider: config.mockProvider,
      providerFetch: parts.providerFetch,
    },
  });
  const providers = createProviderService({
    repository,
    secretBox: platform.secretBox,
    changed: models.invalidate,
    providerFetch: parts.providerFetch,
    mockProvider: config.mockProvider,
  });
  return featureModule({
    services: { models, providers },
    shares: { embedders: createEmbedderResolver({ models, offline: parts.offlineEmbedders }) },
    routes: { v1: [providerRoutes(providers, config.providerUrls), workspaceModelListRoute(providers)] },
  });
}

export type ProvidersModule = ReturnType<typeof createProvidersModule>;
