import { rightsOf } from '../../../core/roles.js';
import type { SignedRequest } from '../workspaces/index.js';
import type { Membership, PeopleRepository } from './repository.js';

export {
  type AccountService,
  createAccountService,
  type PersonCredentials,
  wrongSignInMessage,
} from './accounts.js';
export { createMemberService, type MemberService } from './members.js';
export { maximumPasswordLength } from './passwords.js';
export { presentMember, presentPerson } from './presenters.js';
export { recordInWorkspacesOf, statusOf } from './refused-attempts.js';
export {
  createPeopleRepository,
  type Membership,
  type PeopleRepository,
  type PersonRow,
} from './repository.js';
export {
  acceptInvitationBody,
  memberBody,
  newPersonBody,
  personChangesBody,
  resetBody,
  resetRequestBody,
  setupBody,
} from './schemas.js';

/** A signed-in person's principal: their membership's role and its rights. */
export function memberPrincipal({ user, workspace, role }: Membership): SignedRequest {
  return {
    workspace,
    principal: {
      type: 'person',
      role,
      rights: rightsOf(role),
      person: { id: user.id, email: user.email, name: user.name },
      key: undefined,
    },
  };
}

/** A member's principal in a workspace, or undefined when they are not (or no longer) a member there. */
export function memberPrincipals(repository: Pick<PeopleRepository, 'findMembership'>) {
  return {
    async principalOf(workspaceId: string, userId: string): Promise<SignedRequest | undefined> {
      const membership = await repository.findMembership(workspaceId, userId);
      return membership && memberPrincipal(membership);
    },
  };
}
