import type { Principal } from '../../core/roles.js';
import type { AuthenticatedWorkspace } from '../workspaces/index.js';
import type { NewInvitation } from './members.js';
import type { InvitationRow, UserRow } from './repository.js';
import type {
  MemberResponse,
  MeResponse,
  NewInvitationResponse,
  PendingInvitationResponse,
  UserSummary,
} from './responses.js';

export function presentUser(user: Pick<UserRow, 'id' | 'email' | 'name'>): UserSummary {
  return { guid: user.id, email: user.email, name: user.name };
}

export function presentMember(member: { user: UserRow; role: MemberResponse['role'] }): MemberResponse {
  return { user: presentUser(member.user), role: member.role };
}

export function presentNewInvitation({ invitation, url, emailed }: NewInvitation): NewInvitationResponse {
  return {
    guid: invitation.id,
    email: invitation.email,
    role: invitation.role,
    invite_url: url,
    expires_at: invitation.expiresAt.toISOString(),
    emailed,
  };
}

export function presentInvitation(invitation: InvitationRow): PendingInvitationResponse {
  return {
    guid: invitation.id,
    email: invitation.email,
    role: invitation.role,
    invited_by: invitation.invitedBy,
    created_at: invitation.createdAt.toISOString(),
    expires_at: invitation.expiresAt.toISOString(),
  };
}

export function presentMe(principal: Principal, workspace: AuthenticatedWorkspace): MeResponse {
  return {
    principal: principal.type,
    role: principal.role,
    rights: [...principal.rights].sort(),
    workspace: { guid: workspace.id, name: workspace.name },
    user: principal.user ? presentUser(principal.user) : null,
    key: principal.key
      ? { guid: principal.key.id, name: principal.key.name, prefix: principal.key.prefix }
      : null,
  };
}
