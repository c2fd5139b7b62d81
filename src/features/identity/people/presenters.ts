import type { Principal } from '../../../core/roles.js';
import type { AuthenticatedWorkspace } from '../workspaces/index.js';
import type { NewInvitation } from './members.js';
import type { InvitationRow, PersonRow } from './repository.js';
import type {
  MemberResponse,
  MeResponse,
  NewInvitationResponse,
  PendingInvitationResponse,
  PersonSummary,
} from './responses.js';

export function presentPerson(user: Pick<PersonRow, 'id' | 'email' | 'name'>): PersonSummary {
  return { guid: user.id, email: user.email, name: user.name };
}

export function presentMember(member: { user: PersonRow; role: MemberResponse['role'] }): MemberResponse {
  return { user: presentPerson(member.user), role: member.role };
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
    // The wire keeps the hosted original's word for a signed-in person.
    principal: principal.type === 'person' ? 'user' : 'key',
    role: principal.role,
    rights: [...principal.rights].sort(),
    workspace: { guid: workspace.id, name: workspace.name },
    user: principal.person ? presentPerson(principal.person) : null,
    key: principal.key
      ? { guid: principal.key.id, name: principal.key.name, prefix: principal.key.prefix }
      : null,
  };
}
