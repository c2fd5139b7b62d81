import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import { createSnippetLibrary } from './library.js';
import { createSnippetRepository } from './repository.js';
import { snippetRoutes } from './routes.js';
import { createSnippetService } from './service.js';

/** Snippets: versioned template parts that Actions include. */
export function createSnippetsModule(parts: ModuleParts) {
  const repository = createSnippetRepository(parts.database);
  // What a version's templates include is read from the library, before the version is saved.
  const library = createSnippetLibrary({ repository });
  const snippets = createSnippetService({
    repository,
    library,
    versionSaved: (workspaceId, data) => parts.events.call(workspaceId, 'snippet.version_saved', data),
  });
  return featureModule({
    services: { snippets },
    shares: { library },
    routes: { v1: [snippetRoutes(snippets)] },
  });
}

export type SnippetsModule = ReturnType<typeof createSnippetsModule>;
