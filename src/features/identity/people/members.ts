import { randomUUID } from 'node:crypto';
import type { Page, Pagination } from '../../../core/pagination.js';
import {
  type MemberRole,
  mayGrant,
  memberRoles,
  type Principal,
  rightsOf,
  roleRank,
} from '../../../core/roles.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../../errors.js';
import type { Mailer } from '../../../platform/mailer.js';
import type { PersonCredentials } from './accounts.js';
import {
  type InvitationRow,
  LastOwnerRefusal,
  type MemberRow,
  type PeopleRepository,
  type PersonRow,
} from './repository.js';
import { hashLinkToken, linkTo, newLinkToken, normalEmail } from './tokens.js';

const invitationLifetimeMs = 7 * 24 * 60 * 60_000;
const lastOwnerMessage = 'A workspace keeps at least one owner: make another member owner first';

export type NewInvitation = { invitation: InvitationRow; url: string; emailed: boolean };

export interface MemberService {
  list(workspaceId: string, pagination: Pagination): Promise<Page<MemberRow>>;
  /** An invitation (single use, 7 days), e-mailed when a mailer is set; its link is answered either way. */
  invite(
    workspace: { id: string; name: string },
    inviter: Principal,
    email: string,
    role: MemberRole,
  ): Promise<NewInvitation>;
  pendingInvitations(workspaceId: string): Promise<InvitationRow[]>;
  revokeInvitation(workspaceId: string, invitationId: string): Promise<InvitationRow>;
  /** Sets a member's role: 403 beyond the changer's rights, 409 for the last owner. */
  changeRole(
    workspaceId: string,
    changer: Principal,
    personId: string,
    role: MemberRole,
  ): Promise<{ user: PersonRow; role: MemberRole }>;
  /**
   * Removes a member: 403 beyond the remover's rights, 409 for the last owner. The keys they made
   * there are revoked and their sessions there end, for good (re-adding them brings neither back),
   * and so do the invitations and reset links they issued there.
   */
  remove(
    workspaceId: string,
    remover: Principal,
    personId: string,
  ): Promise<{ user: PersonRow; role: MemberRole }>;
  /**
   * Who a reset link may be issued for (docs/security.md#password-resets): a person the issuer
   * outranks in every workspace the person belongs to, else 403 (they reset their own password
   * from the sign-in page). The person and those workspaces, for the audit record.
   */
  authorizeReset(
    workspaceId: string,
    issuer: Principal,
    personId: string,
  ): Promise<{ user: PersonRow; workspaceIds: string[] }>;
}

/**
 * The highest member role whose every right the principal holds: a person's own role, a key's role
 * as cut down to its creator's (an admin key made by a developer stands as a developer).
 */
function standingOf(principal: Principal): MemberRole | undefined {
  return [...memberRoles]
    .reverse()
    .find((role) => [...rightsOf(role)].every((right) => principal.rights.has(right)));
}

/** Only an owner makes, changes or removes owners; an admin manages the roles below. */
function assertMayManage(actor: Principal, ...roles: (MemberRole | undefined)[]): void {
  if (roles.includes('owner') && !actor.rights.has('manage_owners'))
    throw new ForbiddenError('Only an owner may make, change or remove an owner');
  for (const role of roles)
    if (role !== undefined && !mayGrant(actor.role, role))
      throw new ForbiddenError(`A ${actor.role} may not manage the ${role} role`);
}

export function createMemberService(dependencies: {
  repository: PeopleRepository;
  baseUrl: string;
  mailer: Mailer | undefined;
  afterCommit: (callback: () => unknown) => Promise<void>;
  /** Called when a membership ends or changes: cached key authentications must not outlive it. */
  membershipChanged: () => void;
  credentials: PersonCredentials;
  logger: { warn(object: object, message: string): void };
  now?: () => Date;
}): MemberService {
  const { repository, baseUrl, mailer, afterCommit, membershipChanged, credentials, logger } = dependencies;
  const now = dependencies.now ?? (() => new Date());

  async function requireMember(workspaceId: string, personId: string) {
    const membership = await repository.findMembership(workspaceId, personId);
    if (!membership) throw new NotFoundError('Member not found');
    return membership;
  }

  return {
    list: (workspaceId, { skip, limit }) => repository.listMembers(workspaceId, skip, limit),

    async invite(workspace, inviter, email, role) {
      assertMayManage(inviter, role);
      const token = newLinkToken('lin');
      const at = now();
      const invitation = await repository.insertInvitation({
        id: randomUUID(),
        workspaceId: workspace.id,
        email: normalEmail(email),
        role,
        tokenHash: hashLinkToken(token),
        invitedBy: inviter.person?.id ?? null,
        createdAt: at,
        expiresAt: new Date(at.getTime() + invitationLifetimeMs),
      });
      const url = linkTo(baseUrl, 'invite', token);
      if (mailer) {
        // After the commit: an invitation that was rolled back is never mailed.
        await afterCommit(() =>
          mailer
            .send({
              to: invitation.email,
              subject: `You are invited to ${workspace.name} on Lectern`,
              text: `${inviter.person?.name || inviter.person?.email || 'An administrator'} invites you to the Lectern workspace "${workspace.name}" as ${role}.\n\nAccept within 7 days: ${url}\n\nThe link works once. If you did not expect it, ignore this e-mail.`,
            })
            .catch((error: unknown) =>
              logger.warn({ err: (error as Error).message }, 'invitation e-mail failed'),
            ),
        );
      }
      return { invitation, url, emailed: mailer !== undefined };
    },

    pendingInvitations: (workspaceId) => repository.listPendingInvitations(workspaceId, now()),

    async revokeInvitation(workspaceId, invitationId) {
      const revoked = await repository.revokeInvitation(workspaceId, invitationId, now());
      if (!revoked) throw new NotFoundError('Invitation not found');
      return revoked;
    },

    async changeRole(workspaceId, changer, personId, role) {
      const member = await requireMember(workspaceId, personId);
      assertMayManage(changer, member.role, role);
      try {
        await repository.setRole(workspaceId, personId, role);
      } catch (error) {
        if (error instanceof LastOwnerRefusal) throw new ConflictError(lastOwnerMessage);
        throw error;
      }
      // Invitations and reset links live only as long as their issuer's right to issue them.
      if (!rightsOf(role).has('manage')) await repository.revokeIssuedBy(personId, workspaceId, now());
      membershipChanged();
      return { user: member.user, role };
    },

    async remove(workspaceId, remover, personId) {
      const member = await requireMember(workspaceId, personId);
      assertMayManage(remover, member.role);
      try {
        await repository.removeMember(workspaceId, personId);
      } catch (error) {
        if (error instanceof LastOwnerRefusal) throw new ConflictError(lastOwnerMessage);
        throw error;
      }
      await credentials.revokeKeys(personId, workspaceId);
      await credentials.endSessions(personId, { workspaceId });
      await repository.revokeIssuedBy(personId, workspaceId, now());
      membershipChanged();
      return { user: member.user, role: member.role };
    },

    async authorizeReset(workspaceId, issuer, personId) {
      const { user } = await requireMember(workspaceId, personId);
      const theirs = await repository.workspacesOf(personId);
      const refusal = new ForbiddenError(
        'A reset link is issued only for a person you outrank in every workspace they belong to; they can reset their own password from the sign-in page, or the operator can issue one',
      );
      for (const { workspace, role } of theirs) {
        // A key stands only in its own workspace; a person stands wherever they are a member.
        const issuerRole =
          workspace.id === workspaceId
            ? standingOf(issuer)
            : issuer.type === 'person' && issuer.person
              ? (await repository.findMembership(workspace.id, issuer.person.id))?.role
              : undefined;
        if (issuerRole === undefined || roleRank(issuerRole) <= roleRank(role)) throw refusal;
      }
      return { user, workspaceIds: theirs.map(({ workspace }) => workspace.id) };
    },
  };
}
