import { foldersAlong } from '../../../core/folders.js';
import type { FolderRepository } from './repository.js';

export type Folder = { path: string; actionCount: number; snippetCount: number };

/**
 * The workspace's folders: every folder that holds something and each folder above it (the root
 * is not one), in path order, each counting what it and the folders below it hold. A folder exists
 * while something is filed in it: there is no empty folder to create or delete.
 */
export function createFolderService(dependencies: { repository: FolderRepository }) {
  const { repository } = dependencies;
  return {
    async list(workspaceId: string): Promise<Folder[]> {
      const folders = new Map<string, Folder>();
      for (const { folder, kind, items } of await repository.counts(workspaceId)) {
        for (const path of foldersAlong(folder)) {
          const entry = folders.get(path) ?? { path, actionCount: 0, snippetCount: 0 };
          if (kind === 'action') entry.actionCount += items;
          else entry.snippetCount += items;
          folders.set(path, entry);
        }
      }
      return [...folders.values()].sort((left, right) =>
        left.path < right.path ? -1 : left.path > right.path ? 1 : 0,
      );
    },
  };
}

export type FolderService = ReturnType<typeof createFolderService>;
