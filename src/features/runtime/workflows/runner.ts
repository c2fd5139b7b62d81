import { randomUUID } from 'node:crypto';
import { createRenderBudget, MissingVariableError, renderTemplate } from '@lectern/prompt-templates';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { WorkflowRunBlockStatus, WorkflowRunStatus } from '../../../core/json-columns.js';
import { AppError, isFinal, NotFoundError, publicMessage, ValidationError } from '../../../errors.js';
import {
  defineJob,
  type JobContext,
  type JobHandler,
  type JobQueue,
} from '../../../platform/jobs/job-queue.js';
import type { Tracing } from '../../../platform/tracing.js';
import type { DurableRuns, PromptInput, RunFailure } from '../runs/index.js';
import { presentRunResult } from '../runs/index.js';
import type { RunResultResponse } from '../runs/responses.js';
import type { WorkflowOutputResponse, WorkflowResultResponse, WorkflowTriggerResponse } from './responses.js';
import type { WorkflowRunBlockRow, WorkflowRunRepository, WorkflowRunRow } from './run-repository.js';
import type { BlockDefinition, TriggerInput } from './schemas.js';
import type { ResolvedBlock, WorkflowService } from './service.js';

/** One block of one run. Each block is its own job, so a crash loses at most the block it interrupted. */
export const workflowBlockJob = defineJob({
  name: 'run-workflow-block',
  lane: 'interactive',
  payload: z.object({
    workspaceId: z.uuid(),
    runId: z.uuid(),
    position: z.number().int().min(0),
    /** The workflow run's trace (W3C traceparent): every block's run is a child of its root. */
    traceparent: z.string().optional(),
  }),
  attempts: 3,
  backoffMs: 1_000,
  timeoutMs: 10 * 60 * 1000,
});

/** At most one job per block of a run, however often a crashed predecessor enqueues it again. */
const blockJobKey = (runId: string, position: number) => `workflow-block:${runId}:${position}`;

/** Statuses in the result vocabulary (docs/api.md `PENDING`, `SUCCESS`), with the two a run can also end in. */
const datasetStatus: Record<WorkflowRunStatus | WorkflowRunBlockStatus, WorkflowOutputResponse['status']> = {
  pending: 'PENDING',
  running: 'PENDING',
  succeeded: 'SUCCESS',
  failed: 'FAILED',
  skipped: 'SKIPPED',
};

function failureOf(error: unknown): RunFailure {
  if (error instanceof AppError) return { status: error.status, code: error.code, message: error.message };
  return { status: 502, code: 'block_failed', message: publicMessage(error) };
}

/** The run result (docs/api.md#how-the-parts-behave): the output block's value, else the last block's output. */
function resultOf(blocks: WorkflowRunBlockRow[]): string {
  const output = blocks.find((block) => block.type === 'output') ?? blocks.at(-1);
  return output?.output ?? '';
}

// A workflow run's answers are the API's own shapes (responses.ts), built here: they carry the result
// and feedback URLs this runner mints (as an Action run's answers do).
export type { WorkflowOutputResponse, WorkflowTriggerResponse };

export interface WorkflowRunner {
  trigger(
    workspaceId: string,
    workflowId: string,
    input: TriggerInput | null | undefined,
  ): Promise<WorkflowTriggerResponse>;
  /** Runs temporary blocks (or the stored ones) without changing what is stored. */
  playground(
    workspaceId: string,
    request: { workflow: string; input?: TriggerInput | null; blocks?: BlockDefinition[] | null },
  ): Promise<WorkflowTriggerResponse>;
  /** `{ result }`: empty and PENDING while blocks run; a failed run is an error naming the block. */
  result(workspaceId: string, workflowId: string, runId: string): Promise<WorkflowResultResponse>;
  /** `final` is the run result once the run has succeeded. */
  dataset(workspaceId: string, workflowId: string, runId: string): Promise<WorkflowOutputResponse>;
  /** A block's `result_url`: answers like an Action's result (docs/api.md#how-the-parts-behave). */
  blockResult(
    workspaceId: string,
    workflowId: string,
    runId: string,
    blockId: string,
  ): Promise<RunResultResponse>;
  /** Runs one block of a run (the job `workflowBlockJob`), wired in `src/jobs.ts`. */
  readonly blockHandler: JobHandler<z.infer<typeof workflowBlockJob.payload>>;
}

export function createWorkflowRunner(dependencies: {
  workflows: WorkflowService;
  runs: WorkflowRunRepository;
  durable: DurableRuns;
  jobs: JobQueue;
  baseUrl: string;
  logger: Logger;
  tracing: Pick<Tracing, 'startRun'>;
}): WorkflowRunner {
  const { workflows, runs, durable, jobs, baseUrl, logger, tracing } = dependencies;
  const feedbackUrl = (generationId: string) => `${baseUrl}/v1/feedback/${generationId}`;

  /** Stores the run with copies of its blocks, queues the first block and answers at once (docs/api.md#how-the-parts-behave). */
  async function dispatch(
    workspaceId: string,
    workflowId: string,
    blocks: ResolvedBlock[],
    input: TriggerInput | null | undefined,
    playground: boolean,
  ): Promise<WorkflowTriggerResponse> {
    if (blocks.length === 0) throw new NotFoundError('Workflow has no blocks');
    const runId = randomUUID();
    const runBlocks = blocks.map((block, position) => ({
      runId,
      position,
      blockId: block.id,
      name: block.name,
      type: block.type,
      actionId: block.actionId,
      actionName: block.actionName,
      input: block.input,
      generationId: block.type === 'action' ? randomUUID() : null,
      status: 'pending' as const,
    }));
    const variables = Object.fromEntries((input ?? []).map((entry) => [entry.key, entry.value]));
    await runs.insert(
      { id: runId, workspaceId, workflowId, input: variables, status: 'running', playground },
      runBlocks,
    );
    // One trace for the run: its root ends here, and each block's run joins it from its job.
    const trace = tracing.startRun(workspaceId);
    trace.describe('workflow run', { 'lectern.workflow': workflowId, 'lectern.workflow_run': runId });
    await durable.enqueue(
      workflowBlockJob,
      { workspaceId, runId, position: 0, traceparent: trace.traceparent() },
      (failure) => runs.fail(runId, 0, failure),
      { key: blockJobKey(runId, 0) },
    );
    trace.end();
    const resultBase = `${baseUrl}/v1/workflows/${workflowId}/result/${runId}`;
    return {
      msg: 'Workflow triggered',
      status: 'success',
      blocks: runBlocks
        .filter((block) => block.type === 'action')
        .map((block) => ({
          feedback_url: feedbackUrl(block.generationId!),
          data_guid: block.generationId!,
          result_url: `${resultBase}/blocks/${block.blockId}`,
          action: { guid: block.actionId!, name: block.actionName! },
        })),
      run_guid: runId,
      has_output_block: blocks.some((block) => block.type === 'output'),
    };
  }

  /** docs/api.md#how-the-parts-behave: mapped variables from `{{input.KEY}}` / `{{blocks.NAME}}`, else the previous output. */
  async function inputOf(run: WorkflowRunRow, blocks: WorkflowRunBlockRow[], block: WorkflowRunBlockRow) {
    if (!block.input)
      return block.position === 0 ? (run.input as PromptInput) : (blocks[block.position - 1]!.output ?? '');
    const earlier = Object.fromEntries(
      blocks.slice(0, block.position).map((previous) => [previous.name, previous.output ?? '']),
    );
    const variables: Record<string, string> = {};
    const budget = createRenderBudget();
    for (const [name, source] of Object.entries(block.input)) {
      try {
        variables[name] = await renderTemplate(source, { input: run.input, blocks: earlier }, budget);
      } catch (error) {
        if (error instanceof MissingVariableError) {
          throw new ValidationError(
            `blocks.${block.name}.input.${name}`,
            `"${error.variable}" is not in the trigger input`,
          );
        }
        throw new ValidationError(
          `blocks.${block.name}.input.${name}`,
          (error as Error).message.split('\n')[0]!,
        );
      }
    }
    return variables;
  }

  async function execute(
    run: WorkflowRunRow,
    blocks: WorkflowRunBlockRow[],
    block: WorkflowRunBlockRow,
    context: JobContext,
    traceparent: string | undefined,
  ) {
    if (block.type === 'output') return blocks[block.position - 1]?.output ?? '';
    const input = await inputOf(run, blocks, block);
    const caller = { workspaceId: run.workspaceId, allowModelOverrides: false, traceparent };
    const options = { generationId: block.generationId!, source: 'workflow' as const };
    return (await durable.generate(caller, block.actionId!, { input }, options, context.signal)).output;
  }

  async function requireRun(workspaceId: string, workflowId: string, runId: string) {
    await workflows.require(workspaceId, workflowId);
    const run = await runs.find(workspaceId, runId);
    if (!run || run.workflowId !== workflowId) throw new NotFoundError('Run not found');
    return run;
  }

  return {
    blockHandler: {
      async process({ workspaceId, runId, position, traceparent }, context) {
        const run = await runs.find(workspaceId, runId);
        if (run?.status !== 'running') return;
        const blocks = await runs.blocks(runId);
        const block = blocks[position];
        if (!block || block.status === 'failed' || block.status === 'skipped') return;
        if (block.status !== 'succeeded') {
          try {
            block.output = await execute(run, blocks, block, context, traceparent);
          } catch (error) {
            if (!isFinal(error)) throw error;
            await runs.fail(runId, position, failureOf(error));
            return;
          }
          await runs.completeBlock(runId, position, block.output);
        }
        // Reached again after a crash between completing and queueing: the job key keeps it single.
        if (position + 1 < blocks.length) {
          await jobs.enqueue(
            workflowBlockJob,
            { workspaceId, runId, position: position + 1, traceparent },
            { key: blockJobKey(runId, position + 1) },
          );
        } else {
          await runs.finish(runId, resultOf(blocks));
        }
      },
      async onFinalFailure({ runId, position }, error) {
        logger.warn({ run: runId, position, err: error.message }, 'workflow block failed for good');
        await runs.fail(runId, position, {
          status: 502,
          code: 'block_failed',
          message: publicMessage(error),
        });
      },
    },

    async trigger(workspaceId, workflowId, input) {
      await workflows.require(workspaceId, workflowId);
      return dispatch(workspaceId, workflowId, await workflows.storedBlocks(workflowId), input, false);
    },

    async playground(workspaceId, request) {
      await workflows.require(workspaceId, request.workflow);
      const blocks = request.blocks
        ? await workflows.resolveBlocks(workspaceId, request.blocks)
        : await workflows.storedBlocks(request.workflow);
      return dispatch(workspaceId, request.workflow, blocks, request.input, true);
    },

    async result(workspaceId, workflowId, runId) {
      const run = await requireRun(workspaceId, workflowId, runId);
      if (run.status === 'running') return { result: '', status: 'PENDING' };
      if (run.status === 'failed') {
        const failed = (await runs.blocks(runId)).find((block) => block.status === 'failed');
        throw new AppError(
          failed?.errorStatus ?? 502,
          failed?.errorCode ?? 'workflow_failed',
          `The workflow run failed: ${run.error}`,
        );
      }
      return { result: run.result ?? '', status: 'SUCCESS' };
    },

    async dataset(workspaceId, workflowId, runId) {
      const run = await requireRun(workspaceId, workflowId, runId);
      const blocks = await runs.blocks(runId);
      return {
        final: run.status === 'succeeded' ? (run.result ?? '') : '',
        status: datasetStatus[run.status],
        blocks: blocks.map((block) => ({
          guid: block.blockId,
          name: block.name,
          output: block.output ?? '',
          status: datasetStatus[block.status],
          ...(block.error && { error: block.error }),
        })),
      };
    },

    async blockResult(workspaceId, workflowId, runId, blockId) {
      await requireRun(workspaceId, workflowId, runId);
      const block = (await runs.blocks(runId)).find((candidate) => candidate.blockId === blockId);
      if (!block) throw new NotFoundError('Block not found');
      return presentRunResult(block, feedbackUrl);
    },
  };
}
