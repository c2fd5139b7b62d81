import { randomUUID } from 'node:crypto';
import type { Page, Pagination } from '../../../core/pagination.js';
import { NotFoundError } from '../../../errors.js';
import type { AppRepository, AppRow } from './repository.js';

/** An App: a named group of Actions, Workflows and Experiments. */
export type App = AppRow;

/** What a new App is given, or a change sets: a field left out keeps its value (or its default). */
export type AppFields = { name: string; description?: string; appType?: string | null };

export interface AppService {
  create(workspaceId: string, input: AppFields): Promise<App>;
  /** The App, or 404 — also for an App of another workspace. */
  require(workspaceId: string, id: string): Promise<App>;
  list(workspaceId: string, pagination: Pagination): Promise<Page<App>>;
  update(workspaceId: string, id: string, changes: Partial<AppFields>): Promise<App>;
  /** Soft delete: the App disappears from reads; its Actions keep running. */
  remove(workspaceId: string, id: string): Promise<void>;
}

export function createAppService(dependencies: { repository: AppRepository }): AppService {
  const { repository } = dependencies;
  return {
    async create(workspaceId, input) {
      const app = await repository.insert({
        id: randomUUID(),
        workspaceId,
        name: input.name,
        description: input.description ?? '',
        appType: input.appType ?? null,
      });
      return app;
    },
    async require(workspaceId, id) {
      const app = await repository.find(workspaceId, id);
      if (!app) throw new NotFoundError('App not found');
      return app;
    },
    list(workspaceId, pagination) {
      return repository.list(workspaceId, pagination.skip, pagination.limit);
    },
    async update(workspaceId, id, changes) {
      const app = await repository.update(workspaceId, id, changes);
      if (!app) throw new NotFoundError('App not found');
      return app;
    },
    async remove(workspaceId, id) {
      const app = await repository.update(workspaceId, id, { deletedAt: new Date() });
      if (!app) throw new NotFoundError('App not found');
    },
  };
}
