import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import { newestFirst, tablePage } from '../../../platform/database/pages.js';
import { freeSlug } from '../../../platform/database/slugs.js';
import { actions } from '../../authoring/actions/tables.js';
import { workflowBlocks, workflows } from './tables.js';

export type WorkflowRow = typeof workflows.$inferSelect;
export type WorkflowBlockRow = typeof workflowBlocks.$inferSelect;
/** A stored block with the name of its Action (what a trigger response shows). */
export type BlockWithAction = WorkflowBlockRow & { actionName: string | null };

const live = (workspaceId: string) =>
  and(eq(workflows.workspaceId, workspaceId), isNull(workflows.deletedAt));

export function createWorkflowRepository(database: Database) {
  return {
    async insert(row: typeof workflows.$inferInsert): Promise<WorkflowRow> {
      const [workflow] = await database.insert(workflows).values(row).returning();
      return workflow!;
    },

    async find(workspaceId: string, id: string): Promise<WorkflowRow | undefined> {
      const [workflow] = await database
        .select()
        .from(workflows)
        .where(and(live(workspaceId), eq(workflows.id, id)));
      return workflow;
    },

    async list(workspaceId: string, skip: number, limit: number, appId?: string) {
      const scope = appId ? and(live(workspaceId), eq(workflows.appId, appId)) : live(workspaceId);
      return tablePage(database, workflows, scope, newestFirst(workflows), skip, limit);
    },

    /** A slug from the name that no Workflow of the workspace has yet. */
    freeSlug(workspaceId: string, name: string): Promise<string> {
      return freeSlug(
        database,
        { table: workflows, slug: workflows.slug, workspaceId: workflows.workspaceId },
        workspaceId,
        name,
        'workflow',
      );
    },

    async update(
      workspaceId: string,
      id: string,
      changes: Partial<Pick<WorkflowRow, 'name' | 'deletedAt'>>,
    ): Promise<WorkflowRow | undefined> {
      const [workflow] = await database
        .update(workflows)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(live(workspaceId), eq(workflows.id, id)))
        .returning();
      return workflow;
    },

    /** Replaces the ordered blocks in one transaction: a reader sees the old set or the new one. */
    async replaceBlocks(workflowId: string, blocks: (typeof workflowBlocks.$inferInsert)[]): Promise<void> {
      await database.transaction(async (transaction) => {
        await transaction.delete(workflowBlocks).where(eq(workflowBlocks.workflowId, workflowId));
        if (blocks.length > 0) await transaction.insert(workflowBlocks).values(blocks);
        await transaction
          .update(workflows)
          .set({ updatedAt: new Date() })
          .where(eq(workflows.id, workflowId));
      });
    },

    async blocks(workflowId: string): Promise<BlockWithAction[]> {
      return database
        .select({
          id: workflowBlocks.id,
          workflowId: workflowBlocks.workflowId,
          position: workflowBlocks.position,
          name: workflowBlocks.name,
          type: workflowBlocks.type,
          actionId: workflowBlocks.actionId,
          input: workflowBlocks.input,
          actionName: actions.name,
        })
        .from(workflowBlocks)
        .leftJoin(actions, eq(actions.id, workflowBlocks.actionId))
        .where(eq(workflowBlocks.workflowId, workflowId))
        .orderBy(asc(workflowBlocks.position));
    },
  };
}

export type WorkflowRepository = ReturnType<typeof createWorkflowRepository>;
