import { randomUUID } from 'node:crypto';
import type { Page, Pagination } from '../../../core/pagination.js';
import { NotFoundError } from '../../../errors.js';
import { defaultEmbeddingModel } from '../../../retrieval/embedders/offline-models.js';
import { defaultSplitterConfig } from '../../../retrieval/splitters.js';
import type { EmbedderResolver } from '../../models/providers/index.js';
import type { ContextRepository, ContextRow, ContextWithState } from './repository.js';
import type { CreateContextInput, UpdateContextInput } from './schemas.js';

/** A document library indexed for retrieval: its splitter, embedding model and answer length. */
export type Context = ContextRow;
export type { ContextWithState };

export interface ContextService {
  /** The Context, or 404 — also for one of another workspace. */
  require(workspaceId: string, id: string): Promise<Context>;
  /** The Context with `processed` (nothing left to embed or index), or 404. */
  requireWithState(workspaceId: string, id: string): Promise<ContextWithState>;
  /** Whether the workspace has this Context (one indexed row read). */
  exists(workspaceId: string, id: string): Promise<boolean>;
  /** The GUID of the workspace's Context of this name, or undefined. */
  findIdByName(workspaceId: string, name: string): Promise<string | undefined>;
  /** The Contexts of the workspace among `ids`; unknown or deleted ones are skipped. */
  findMany(workspaceId: string, ids: string[]): Promise<Context[]>;
  /** The Contexts among `ids` with their state, in the order given; missing ones are skipped. */
  findManyWithState(workspaceId: string, ids: string[]): Promise<ContextWithState[]>;
  create(workspaceId: string, createdById: string, input: CreateContextInput): Promise<ContextWithState>;
  list(workspaceId: string, pagination: Pagination): Promise<Page<ContextWithState>>;
  /** A new embedding model re-embeds every Document of the Context. */
  update(workspaceId: string, id: string, input: UpdateContextInput): Promise<ContextWithState>;
  /** Deletes the Context with its Documents and Context Sources. */
  remove(workspaceId: string, id: string): Promise<void>;
}

export type ContextServiceDependencies = {
  repository: ContextRepository;
  embedders: EmbedderResolver;
  /** Re-embeds a Context's Documents (the documents feature) after its embedding model changed. */
  embeddingModelChanged: (workspaceId: string, contextId: string) => Promise<void>;
};

/** A Context of the workspace, or a 404: for this service and the features built under it (Documents). */
export function contextRequirer(repository: Pick<ContextRepository, 'find'>) {
  return async (workspaceId: string, id: string): Promise<ContextRow> => {
    const row = await repository.find(workspaceId, id);
    if (!row) throw new NotFoundError('Context not found');
    return row;
  };
}

export function createContextService(dependencies: ContextServiceDependencies): ContextService {
  const { repository, embedders } = dependencies;
  const require = contextRequirer(repository);

  async function requireWithState(workspaceId: string, id: string): Promise<ContextWithState> {
    const row = await repository.findWithState(workspaceId, id);
    if (!row) throw new NotFoundError('Context not found');
    return row;
  }

  /**
   * Stored by name, the default included: a Context's vectors belong to its model, so a release that
   * changes the default must not change the model of a Context that already has vectors.
   */
  const storedModel = (reference: string | null | undefined) => reference || defaultEmbeddingModel;

  return {
    require,
    requireWithState,
    exists: (workspaceId, id) => repository.exists(workspaceId, id),
    findIdByName: (workspaceId, name) => repository.findIdByName(workspaceId, name),
    findMany: (workspaceId, ids) => repository.findMany(workspaceId, ids),

    async findManyWithState(workspaceId, ids) {
      const rows = await Promise.all(ids.map((id) => repository.findWithState(workspaceId, id)));
      return rows.filter((row) => row !== undefined);
    },

    async create(workspaceId, createdById, input) {
      await embedders.validate(workspaceId, input.embeddingModel);
      const row = await repository.insert({
        id: randomUUID(),
        workspaceId,
        name: input.name,
        description: input.description,
        responseLength: input.responseLength ?? null,
        splitterConfig: input.splitterConfig ?? defaultSplitterConfig,
        embeddingModel: storedModel(input.embeddingModel),
        createdById,
      });
      return { ...row, processed: true };
    },

    list(workspaceId, pagination) {
      return repository.list(workspaceId, pagination.skip, pagination.limit);
    },

    async update(workspaceId, id, input) {
      const before = await require(workspaceId, id);
      if (input.embeddingModel !== undefined) await embedders.validate(workspaceId, input.embeddingModel);
      const modelChanged =
        input.embeddingModel !== undefined && storedModel(input.embeddingModel) !== before.embeddingModel;
      const changes: Parameters<ContextRepository['update']>[2] = {};
      if (input.name !== undefined) changes.name = input.name;
      if (input.description !== undefined) changes.description = input.description;
      if (input.responseLength !== undefined) changes.responseLength = input.responseLength;
      if (input.splitterConfig !== undefined) changes.splitterConfig = input.splitterConfig;
      if (input.metadata !== undefined) changes.metadata = input.metadata;
      if (modelChanged) changes.embeddingModel = storedModel(input.embeddingModel);
      const row = await repository.update(workspaceId, id, changes);
      if (!row) throw new NotFoundError('Context not found');
      if (modelChanged) await dependencies.embeddingModelChanged(workspaceId, id);
      return requireWithState(workspaceId, id);
    },

    async remove(workspaceId, id) {
      const deleted = await repository.delete(workspaceId, id);
      if (!deleted) throw new NotFoundError('Context not found');
    },
  };
}
