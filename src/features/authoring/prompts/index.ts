export { createPromptService, type DeploymentChange, type PromptService } from './service.js';
