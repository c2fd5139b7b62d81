import { randomUUID } from 'node:crypto';
import type { Page, Pagination } from '../../../core/pagination.js';
import { NotFoundError, ValidationError } from '../../../errors.js';
import type { SessionRepository, SessionRow } from './repository.js';
import type { CreateSessionInput, UpdateSessionInput } from './schemas.js';

/** A multi-turn conversation with one Action; runs that name it get its history. */
export type Session = SessionRow;

export interface SessionService {
  /** The session, or 404 — also for a session of another workspace or a deleted one. */
  require(workspaceId: string, id: string): Promise<Session>;
  /** A session a run of `actionId` may use: it must exist and belong to that Action (when named). */
  requireForRun(workspaceId: string, id: string, actionId?: string): Promise<Session>;
  create(workspaceId: string, input: CreateSessionInput): Promise<Session>;
  list(workspaceId: string, pagination: Pagination, extUserId?: string): Promise<Page<Session>>;
  update(workspaceId: string, id: string, input: UpdateSessionInput): Promise<Session>;
  /** Soft delete: the session's generations keep their reference; public reads no longer see it. */
  remove(workspaceId: string, id: string): Promise<Session>;
}

export function createSessionService(dependencies: {
  repository: SessionRepository;
  requireAction: (workspaceId: string, actionId: string) => Promise<unknown>;
}): SessionService {
  const { repository, requireAction } = dependencies;
  async function require(workspaceId: string, id: string): Promise<Session> {
    const row = await repository.find(workspaceId, id);
    if (!row) throw new NotFoundError('Session not found');
    return row;
  }

  return {
    require,

    async requireForRun(workspaceId, id, actionId) {
      const row = await require(workspaceId, id);
      if (actionId !== undefined && row.actionId !== actionId) {
        throw new ValidationError('session', 'this session belongs to another Action');
      }
      return row;
    },

    async create(workspaceId, input) {
      await requireAction(workspaceId, input.action);
      const row = await repository.insert({
        id: randomUUID(),
        workspaceId,
        actionId: input.action,
        name: input.name ?? null,
        extUserId: input.extUserId ?? null,
      });
      return row;
    },

    list(workspaceId, pagination, extUserId) {
      return repository.list(workspaceId, pagination.skip, pagination.limit, extUserId);
    },

    async update(workspaceId, id, input) {
      const changes: Parameters<SessionRepository['update']>[2] = { name: input.name };
      if (input.extUserId !== undefined) changes.extUserId = input.extUserId;
      const row = await repository.update(workspaceId, id, changes);
      if (!row) throw new NotFoundError('Session not found');
      return row;
    },

    async remove(workspaceId, id) {
      const row = await repository.update(workspaceId, id, { deletedAt: new Date() });
      if (!row) throw new NotFoundError('Session not found');
      return row;
    },
  };
}
