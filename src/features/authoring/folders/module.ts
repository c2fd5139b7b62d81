import { featureModule } from '../../feature-module.js';
import type { ModuleParts } from '../../module-parts.js';
import { createFolderRepository } from './repository.js';
import { folderRoutes } from './routes.js';
import { createFolderService } from './service.js';

/** Folders: where the console files Actions, Snippets and the rest. */
export function createFoldersModule(parts: ModuleParts) {
  const folders = createFolderService({ repository: createFolderRepository(parts.database) });
  return featureModule({ services: { folders }, routes: { v1: [folderRoutes(folders)] } });
}

export type FoldersModule = ReturnType<typeof createFoldersModule>;
