import { randomUUID } from 'node:crypto';
import type { WorkflowBlockType } from '../../../core/json-columns.js';
import type { Page, Pagination } from '../../../core/pagination.js';
import { NotFoundError, ValidationError } from '../../../errors.js';
import type { AppService } from '../../authoring/apps/index.js';
import { checkBlocks } from './blocks.js';
import type { WorkflowRepository, WorkflowRow } from './repository.js';
import type { BlockDefinition } from './schemas.js';

/** A block ready to run: its Action found in the workspace (by GUID or slug) and named. */
export type ResolvedBlock = {
  id: string;
  name: string;
  type: WorkflowBlockType;
  actionId: string | null;
  actionName: string | null;
  input: Record<string, string> | null;
};

/** Finds a workspace's Action by GUID or slug (the Actions feature answers). */
export type ActionLookup = (
  workspaceId: string,
  guidOrSlug: string,
) => Promise<{ guid: string; name: string } | undefined>;

/** An ordered list of blocks run one after another; each run keeps its own copy of the blocks. */
export type Workflow = WorkflowRow;

export interface WorkflowService {
  /** The Workflow, or 404 — also for one of another workspace or a deleted one. */
  require(workspaceId: string, id: string): Promise<Workflow>;
  /** The blocks as stored, in order (the caller has checked the Workflow is the workspace's). */
  storedBlocks(workflowId: string): Promise<ResolvedBlock[]>;
  create(workspaceId: string, createdById: string, input: { name: string; app: string }): Promise<Workflow>;
  list(workspaceId: string, pagination: Pagination, appId?: string): Promise<Page<Workflow>>;
  rename(workspaceId: string, id: string, name: string): Promise<Workflow>;
  /** Soft delete (docs/api.md): the row stays, every public read answers 404. */
  remove(workspaceId: string, id: string): Promise<Workflow>;
  /** Checks block definitions and finds their Actions in the workspace; a 400 naming the block otherwise. */
  resolveBlocks(workspaceId: string, definitions: BlockDefinition[]): Promise<ResolvedBlock[]>;
  blocks(workspaceId: string, id: string): Promise<ResolvedBlock[]>;
  /** docs/api.md#how-the-parts-behave: replaces the ordered blocks; runs already triggered keep their own copies. */
  setBlocks(workspaceId: string, id: string, definitions: BlockDefinition[]): Promise<ResolvedBlock[]>;
}

export function createWorkflowService(dependencies: {
  repository: WorkflowRepository;
  apps: AppService;
  findAction: ActionLookup;
}): WorkflowService {
  const { repository, apps, findAction } = dependencies;

  async function require(workspaceId: string, id: string): Promise<Workflow> {
    const row = await repository.find(workspaceId, id);
    if (!row) throw new NotFoundError('Workflow not found');
    return row;
  }

  async function storedBlocks(workflowId: string): Promise<ResolvedBlock[]> {
    return (await repository.blocks(workflowId)).map((block) => ({
      id: block.id,
      name: block.name,
      type: block.type,
      actionId: block.actionId,
      actionName: block.actionName,
      input: block.input,
    }));
  }

  async function resolveBlocks(
    workspaceId: string,
    definitions: BlockDefinition[],
  ): Promise<ResolvedBlock[]> {
    checkBlocks(definitions);
    return Promise.all(
      definitions.map(async (definition, index) => {
        let action: { guid: string; name: string } | undefined;
        if (definition.type === 'action') {
          action = await findAction(workspaceId, definition.action!);
          if (!action) {
            throw new ValidationError(
              `blocks.${index}.action`,
              `no Action of this workspace has the GUID or slug ${definition.action}`,
            );
          }
        }
        return {
          id: randomUUID(),
          name: definition.name,
          type: definition.type,
          actionId: action?.guid ?? null,
          actionName: action?.name ?? null,
          input: definition.input ?? null,
        };
      }),
    );
  }

  return {
    require,
    storedBlocks,

    async create(workspaceId, createdById, input) {
      await apps.require(workspaceId, input.app);
      const row = await repository.insert({
        id: randomUUID(),
        workspaceId,
        appId: input.app,
        name: input.name,
        slug: await repository.freeSlug(workspaceId, input.name),
        createdById,
      });
      return row;
    },

    async list(workspaceId, pagination, appId) {
      if (appId) await apps.require(workspaceId, appId);
      return repository.list(workspaceId, pagination.skip, pagination.limit, appId);
    },

    async rename(workspaceId, id, name) {
      const row = await repository.update(workspaceId, id, { name });
      if (!row) throw new NotFoundError('Workflow not found');
      return row;
    },

    async remove(workspaceId, id) {
      const row = await repository.update(workspaceId, id, { deletedAt: new Date() });
      if (!row) throw new NotFoundError('Workflow not found');
      return row;
    },

    resolveBlocks,
    async blocks(workspaceId, id) {
      await require(workspaceId, id);
      return storedBlocks(id);
    },

    async setBlocks(workspaceId, id, definitions) {
      await require(workspaceId, id);
      const blocks = await resolveBlocks(workspaceId, definitions);
      await repository.replaceBlocks(
        id,
        blocks.map((block, position) => ({
          id: block.id,
          workflowId: id,
          position,
          name: block.name,
          type: block.type,
          actionId: block.actionId,
          input: block.input,
        })),
      );
      return blocks;
    },
  };
}
