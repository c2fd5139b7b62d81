import type { WorkspaceSettings } from './json-columns.js';
import type { Principal } from './roles.js';

// What every authenticated request carries. The workspaces feature signs requests in and the http
// layer reads them, so the shapes sit below both.

export type AuthenticatedWorkspace = {
  id: string;
  name: string;
  settings: WorkspaceSettings;
};

/** An authenticated request's workspace and who is asking. */
export type SignedRequest = { workspace: AuthenticatedWorkspace; principal: Principal };
