export { createWorkflowRepository } from './repository.js';
export { createWorkflowRunRepository } from './run-repository.js';
export { createWorkflowRunner } from './runner.js';
export { createWorkflowService } from './service.js';
