import { z } from 'zod';
import { guid, timestamp } from '../../../core/wire.js';
import { workflowBlockTypes } from '../../../core/wire-values.js';

export const workflowResponse = z
  .strictObject({
    guid,
    name: z.string(),
    slug: z.string(),
    app: guid,
    created_by_id: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Workflow' });

export const blockResponse = z
  .strictObject({
    guid,
    name: z.string(),
    type: z.enum(workflowBlockTypes),
    action: guid.nullable(),
    action_name: z.string().nullable(),
    input: z.record(z.string(), z.string()).nullable().describe('Variable → template of the block’s input'),
  })
  .meta({ id: 'WorkflowBlock' });

export const blocksResponse = z.strictObject({ blocks: z.array(blockResponse) });

/** The answer to a trigger: the run's GUID and, per Action block, where its result and record live. */
export const workflowTriggerResponse = z.strictObject({
  msg: z.string(),
  status: z.literal('success'),
  blocks: z.array(
    z.strictObject({
      feedback_url: z.string(),
      data_guid: guid,
      result_url: z.string(),
      action: z.strictObject({ guid, name: z.string() }),
    }),
  ),
  run_guid: guid,
  has_output_block: z.boolean(),
});

/** `{ result }`: empty and PENDING while blocks run; a failed run is an error naming the block. */
export const workflowResultResponse = z.strictObject({
  result: z.string(),
  status: z.enum(['PENDING', 'SUCCESS']),
});

const runStatus = z.enum(['PENDING', 'SUCCESS', 'FAILED', 'SKIPPED']);

/** `final` is the run result once the run has succeeded. */
export const workflowOutputResponse = z.strictObject({
  final: z.string(),
  status: runStatus,
  blocks: z.array(
    z.strictObject({
      guid,
      name: z.string(),
      output: z.string(),
      status: runStatus,
      error: z.string().optional(),
    }),
  ),
});

export type WorkflowResponse = z.output<typeof workflowResponse>;
export type BlockResponse = z.output<typeof blockResponse>;
export type WorkflowTriggerResponse = z.output<typeof workflowTriggerResponse>;
export type WorkflowResultResponse = z.output<typeof workflowResultResponse>;
export type WorkflowOutputResponse = z.output<typeof workflowOutputResponse>;
