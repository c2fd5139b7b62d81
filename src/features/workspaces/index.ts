export { createWorkspaceRepository } from './repository.js';
export {
  type AuthenticatedWorkspace,
  createWorkspaceService,
  generateApiKey,
  hashApiKey,
  presentWorkspace,
  type WorkspaceService,
} from './service.js';
