import { presentPerson } from '../people/index.js';
import type { SignedRequest } from '../workspaces/index.js';
import type { SignedInResponse } from './responses.js';

/** Who a console session is: its workspace, role and person (null for a key without a creator). */
export const presentSignIn = ({ workspace, principal }: SignedRequest): SignedInResponse => ({
  workspace: { guid: workspace.id, name: workspace.name },
  role: principal.role,
  user: principal.person ? presentPerson(principal.person) : null,
});
