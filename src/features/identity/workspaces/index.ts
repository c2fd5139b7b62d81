export {
  presentApiKey,
  presentNewApiKey,
  presentNewWorkspace,
  presentRevokedApiKey,
  presentWorkspace,
} from './presenters.js';
export { createWorkspaceRepository } from './repository.js';
export {
  type ApiKey,
  type AuthenticatedWorkspace,
  createWorkspaceService,
  generateApiKey,
  hashApiKey,
  keyPrincipal,
  type ListedApiKey,
  type NewKey,
  type SignedRequest,
  type Workspace,
  type WorkspaceService,
} from './service.js';
