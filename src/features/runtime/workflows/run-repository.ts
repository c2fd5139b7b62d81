import { and, asc, eq, gt } from 'drizzle-orm';
import type { Database } from '../../../platform/database/connection.js';
import type { RunFailure } from '../runs/index.js';
import { workflowRunBlocks, workflowRuns } from './tables.js';

export type WorkflowRunRow = typeof workflowRuns.$inferSelect;
export type WorkflowRunBlockRow = typeof workflowRunBlocks.$inferSelect;

/** Runs of Workflows and the blocks each executes; a run's blocks are copies taken when it was triggered. */
export function createWorkflowRunRepository(database: Database) {
  const blockAt = (runId: string, position: number) =>
    and(eq(workflowRunBlocks.runId, runId), eq(workflowRunBlocks.position, position));

  return {
    /** The run and all its blocks together, so a worker never finds a run without its blocks. */
    async insert(run: typeof workflowRuns.$inferInsert, blocks: (typeof workflowRunBlocks.$inferInsert)[]) {
      await database.transaction(async (transaction) => {
        await transaction.insert(workflowRuns).values(run);
        await transaction.insert(workflowRunBlocks).values(blocks);
      });
    },

    async find(workspaceId: string, runId: string): Promise<WorkflowRunRow | undefined> {
      const [run] = await database
        .select()
        .from(workflowRuns)
        .where(and(eq(workflowRuns.workspaceId, workspaceId), eq(workflowRuns.id, runId)));
      return run;
    },

    async blocks(runId: string): Promise<WorkflowRunBlockRow[]> {
      return database
        .select()
        .from(workflowRunBlocks)
        .where(eq(workflowRunBlocks.runId, runId))
        .orderBy(asc(workflowRunBlocks.position));
    },

    async completeBlock(runId: string, position: number, output: string): Promise<void> {
      await database
        .update(workflowRunBlocks)
        .set({ status: 'succeeded', output, updatedAt: new Date() })
        .where(blockAt(runId, position));
    },

    async finish(runId: string, result: string): Promise<void> {
      await database
        .update(workflowRuns)
        .set({ status: 'succeeded', result, updatedAt: new Date() })
        .where(eq(workflowRuns.id, runId));
    },

    /** The block fails, the blocks after it are skipped, and the run fails naming the block. */
    async fail(runId: string, position: number, failure: RunFailure): Promise<void> {
      await database.transaction(async (transaction) => {
        const now = new Date();
        const [block] = await transaction
          .update(workflowRunBlocks)
          .set({
            status: 'failed',
            errorStatus: failure.status,
            errorCode: failure.code,
            error: failure.message,
            updatedAt: now,
          })
          .where(blockAt(runId, position))
          .returning({ name: workflowRunBlocks.name });
        const reason = `block "${block?.name}" failed: ${failure.message}`;
        await transaction
          .update(workflowRunBlocks)
          .set({
            status: 'skipped',
            errorStatus: failure.status,
            errorCode: 'block_skipped',
            error: `not run because ${reason}`,
            updatedAt: now,
          })
          .where(
            and(
              eq(workflowRunBlocks.runId, runId),
              gt(workflowRunBlocks.position, position),
              eq(workflowRunBlocks.status, 'pending'),
            ),
          );
        await transaction
          .update(workflowRuns)
          .set({ status: 'failed', error: reason, updatedAt: now })
          .where(eq(workflowRuns.id, runId));
      });
    },
  };
}

export type WorkflowRunRepository = ReturnType<typeof createWorkflowRunRepository>;
