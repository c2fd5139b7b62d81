import { randomUUID } from 'node:crypto';
import type { Pagination } from '../../core/pagination.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { SessionRepository, SessionRow } from './repository.js';
import type { CreateSessionInput, UpdateSessionInput } from './schemas.js';

/** A session as the API answers it. */
export function presentSession(row: SessionRow) {
  return {
    guid: row.id,
    name: row.name,
    action: row.actionId,
    ext_user_id: row.extUserId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function createSessionService(
  repository: SessionRepository,
  requireAction: (workspaceId: string, actionId: string) => Promise<void>,
) {
  async function require(workspaceId: string, id: string): Promise<SessionRow> {
    const row = await repository.find(workspaceId, id);
    if (!row) throw new NotFoundError('Session not found');
    return row;
  }

  return {
    require,

    /** A session a run of `actionId` may use: it must exist and belong to that Action (when named). */
    async requireForRun(workspaceId: string, id: string, actionId?: string): Promise<SessionRow> {
      const row = await require(workspaceId, id);
      if (actionId !== undefined && row.actionId !== actionId) {
        throw new ValidationError('this session belongs to another Action', 'session');
      }
      return row;
    },

    async create(workspaceId: string, input: CreateSessionInput) {
      await requireAction(workspaceId, input.action);
      const row = await repository.insert({
        id: randomUUID(),
        workspaceId,
        actionId: input.action,
        name: input.name ?? null,
        extUserId: input.extUserId ?? null,
      });
      return presentSession(row);
    },

    async get(workspaceId: string, id: string) {
      return presentSession(await require(workspaceId, id));
    },

    async list(workspaceId: string, pagination: Pagination, extUserId?: string) {
      const { rows, total } = await repository.list(
        workspaceId,
        pagination.skip,
        pagination.limit,
        extUserId,
      );
      return { rows: rows.map(presentSession), total };
    },

    async update(workspaceId: string, id: string, input: UpdateSessionInput) {
      const changes: Parameters<SessionRepository['update']>[2] = { name: input.name };
      if (input.extUserId !== undefined) changes.extUserId = input.extUserId;
      const row = await repository.update(workspaceId, id, changes);
      if (!row) throw new NotFoundError('Session not found');
      return presentSession(row);
    },

    /** Soft delete: the session's generations keep their reference; public reads no longer see it. */
    async remove(workspaceId: string, id: string) {
      const row = await repository.update(workspaceId, id, { deletedAt: new Date() });
      if (!row) throw new NotFoundError('Session not found');
      return { ...presentSession(row), deleted: true };
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
