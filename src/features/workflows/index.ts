export { createWorkflowRepository } from './repository.js';
export { createWorkflowRunRepository } from './run-repository.js';
export { createWorkflowRunner, type WorkflowRunner } from './runner.js';
export { createWorkflowService, type Workflow, type WorkflowService } from './service.js';
