export { createWorkflowRepository } from './repository.js';
export { createWorkflowRunRepository } from './run-repository.js';
export { createWorkflowRunner, type WorkflowRunner, workflowBlockJob } from './runner.js';
export { createWorkflowService, type Workflow, type WorkflowService } from './service.js';
