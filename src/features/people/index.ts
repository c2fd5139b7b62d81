import { rightsOf } from '../../core/roles.js';
import type { SignedRequest } from '../workspaces/index.js';
import type { Membership } from './repository.js';

export {
  type AccountService,
  createAccountService,
  type PersonCredentials,
  wrongSignInMessage,
} from './accounts.js';
export { createMemberService, type MemberService } from './members.js';
export { maximumPasswordLength } from './passwords.js';
export { presentMember, presentUser } from './presenters.js';
export { recordInWorkspacesOf, statusOf } from './refused-attempts.js';
export {
  createPeopleRepository,
  type Membership,
  type PeopleRepository,
  type UserRow,
} from './repository.js';
export { memberBody, newUserBody, userChangesBody } from './schemas.js';

/** A signed-in person's principal: their membership's role and its rights. */
export function memberPrincipal({ user, workspace, role }: Membership): SignedRequest {
  return {
    workspace,
    principal: {
      type: 'user',
      role,
      rights: rightsOf(role),
      user: { id: user.id, email: user.email, name: user.name },
      key: undefined,
    },
  };
}
