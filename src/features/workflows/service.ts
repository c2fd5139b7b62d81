import { randomUUID } from 'node:crypto';
import type { WorkflowBlockType } from '../../core/json-columns.js';
import type { Pagination } from '../../core/pagination.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { AppService } from '../apps/index.js';
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

/** A Workflow as the API answers it: `guid`, `name`, `slug`, timestamps, creator; plus its App. */
export function presentWorkflow(row: WorkflowRow) {
  return {
    guid: row.id,
    name: row.name,
    slug: row.slug,
    app: row.appId,
    created_by_id: row.createdById,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** docs/api.md#how-the-parts-behave block, as `GET .../blocks` lists it. */
export function presentBlock(block: ResolvedBlock) {
  return {
    guid: block.id,
    name: block.name,
    type: block.type,
    action: block.actionId,
    action_name: block.actionName,
    input: block.input,
  };
}

export function createWorkflowService(dependencies: {
  repository: WorkflowRepository;
  apps: AppService;
  findAction: ActionLookup;
}) {
  const { repository, apps, findAction } = dependencies;

  async function require(workspaceId: string, id: string): Promise<WorkflowRow> {
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

  return {
    require,
    storedBlocks,

    async create(workspaceId: string, createdById: string, input: { name: string; app: string }) {
      await apps.require(workspaceId, input.app);
      const row = await repository.insert({
        id: randomUUID(),
        workspaceId,
        appId: input.app,
        name: input.name,
        slug: await repository.freeSlug(workspaceId, input.name),
        createdById,
      });
      return presentWorkflow(row);
    },

    async get(workspaceId: string, id: string) {
      return presentWorkflow(await require(workspaceId, id));
    },

    async list(workspaceId: string, pagination: Pagination, appId?: string) {
      if (appId) await apps.require(workspaceId, appId);
      const { rows, total } = await repository.list(workspaceId, pagination.skip, pagination.limit, appId);
      return { rows: rows.map(presentWorkflow), total };
    },

    async rename(workspaceId: string, id: string, name: string) {
      const row = await repository.update(workspaceId, id, { name });
      if (!row) throw new NotFoundError('Workflow not found');
      return presentWorkflow(row);
    },

    /** Soft delete (docs/api.md): the row stays, every public read answers 404. */
    async remove(workspaceId: string, id: string) {
      const row = await repository.update(workspaceId, id, { deletedAt: new Date() });
      if (!row) throw new NotFoundError('Workflow not found');
      return { guid: row.id, deleted: true };
    },

    /** Checks block definitions and finds their Actions in the workspace; a 400 naming the block otherwise. */
    async resolveBlocks(workspaceId: string, definitions: BlockDefinition[]): Promise<ResolvedBlock[]> {
      checkBlocks(definitions);
      return Promise.all(
        definitions.map(async (definition, index) => {
          let action: { guid: string; name: string } | undefined;
          if (definition.type === 'action') {
            action = await findAction(workspaceId, definition.action!);
            if (!action) {
              throw new ValidationError(
                `no Action of this workspace has the GUID or slug ${definition.action}`,
                `blocks.${index}.action`,
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
    },

    async blocks(workspaceId: string, id: string) {
      await require(workspaceId, id);
      return (await storedBlocks(id)).map(presentBlock);
    },

    /** docs/api.md#how-the-parts-behave: replaces the ordered blocks; runs already triggered keep their own copies. */
    async setBlocks(workspaceId: string, id: string, definitions: BlockDefinition[]) {
      await require(workspaceId, id);
      const blocks = await this.resolveBlocks(workspaceId, definitions);
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
      return blocks.map(presentBlock);
    },
  };
}

export type WorkflowService = ReturnType<typeof createWorkflowService>;
