import type { AuthenticatedWorkspace } from '../../identity/workspaces/index.js';
import type { RunCaller } from './engine.js';

/** The caller of a run: the authenticated workspace and whether it lets requests override the model. */
export function callerOf(workspace: AuthenticatedWorkspace, traceparent?: string | string[]): RunCaller {
  return {
    workspaceId: workspace.id,
    allowModelOverrides: workspace.settings.allowModelOverrides !== false,
    // A run joins the trace of the request that asked for it (W3C Trace Context).
    ...(typeof traceparent === 'string' && { traceparent }),
  };
}
