import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../errors.js';
import type { Pagination } from '../../http/pagination.js';
import type { AppRepository, AppRow } from './repository.js';
import type { CreateAppInput, UpdateAppInput } from './schemas.js';

export function presentApp(app: AppRow) {
  return {
    guid: app.id,
    name: app.name,
    description: app.description,
    app_type: app.appType,
    created_at: app.createdAt.toISOString(),
    updated_at: app.updatedAt.toISOString(),
  };
}

export function createAppService(repository: AppRepository) {
  return {
    async create(workspaceId: string, input: CreateAppInput) {
      const app = await repository.insert({
        id: randomUUID(),
        workspaceId,
        name: input.name,
        description: input.description ?? '',
        appType: input.app_type ?? null,
      });
      return presentApp(app);
    },
    /** The App row, or 404 — also for an App of another workspace. */
    async require(workspaceId: string, id: string): Promise<AppRow> {
      const app = await repository.find(workspaceId, id);
      if (!app) throw new NotFoundError('App not found');
      return app;
    },
    async get(workspaceId: string, id: string) {
      return presentApp(await this.require(workspaceId, id));
    },
    async list(workspaceId: string, pagination: Pagination) {
      const { rows, total } = await repository.list(workspaceId, pagination.skip, pagination.limit);
      return { rows: rows.map(presentApp), total };
    },
    async update(workspaceId: string, id: string, input: UpdateAppInput) {
      const { app_type, ...fields } = input;
      const app = await repository.update(workspaceId, id, {
        ...fields,
        ...(app_type !== undefined && { appType: app_type }),
      });
      if (!app) throw new NotFoundError('App not found');
      return presentApp(app);
    },
    /** Soft delete: the App disappears from reads; its Actions keep running. */
    async remove(workspaceId: string, id: string) {
      const app = await repository.update(workspaceId, id, { deletedAt: new Date() });
      if (!app) throw new NotFoundError('App not found');
      return { guid: app.id, deleted: true };
    },
  };
}

export type AppService = ReturnType<typeof createAppService>;
