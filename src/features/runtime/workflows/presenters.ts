import type { BlockResponse, WorkflowResponse } from './responses.js';
import type { ResolvedBlock, Workflow } from './service.js';

/** A Workflow as the API answers it: `guid`, `name`, `slug`, timestamps, creator; plus its App. */
export function presentWorkflow(workflow: Workflow): WorkflowResponse {
  return {
    guid: workflow.id,
    name: workflow.name,
    slug: workflow.slug,
    app: workflow.appId,
    created_by_id: workflow.createdById,
    created_at: workflow.createdAt.toISOString(),
    updated_at: workflow.updatedAt.toISOString(),
  };
}

/** docs/api.md#how-the-parts-behave block, as `GET .../blocks` lists it. */
export function presentBlock(block: ResolvedBlock): BlockResponse {
  return {
    guid: block.id,
    name: block.name,
    type: block.type,
    action: block.actionId,
    action_name: block.actionName,
    input: block.input,
  };
}
