import type { AuthenticatedWorkspace } from '../workspaces/index.js';
import type { RunCaller } from './engine.js';

/** The caller of a run: the authenticated workspace and whether it lets requests override the model. */
export function callerOf(workspace: AuthenticatedWorkspace): RunCaller {
  return { workspaceId: workspace.id, allowModelOverrides: workspace.settings.allowModelOverrides !== false };
}
