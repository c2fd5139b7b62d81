import { randomUUID } from 'node:crypto';
import type { MemberRole } from '../../../core/roles.js';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../../../errors.js';
import type { AttemptCounter } from '../../../platform/attempt-counter.js';
import { isUniqueViolation } from '../../../platform/database/errors.js';
import type { Mailer } from '../../../platform/mailer.js';
import { checkPasswordStrength, decoyHash, hashPassword, verifyPassword } from './passwords.js';
import {
  LastOwnerRefusal,
  type Membership,
  type PeopleRepository,
  type PersonRow,
  type WorkspaceOfMember,
} from './repository.js';
import { createResetLinks, type ResetIssuer } from './reset-links.js';
import { createSignInLimit } from './sign-in-limit.js';
import { hashLinkToken, linkTo, newLinkToken, normalEmail } from './tokens.js';

const setupLifetimeMs = 24 * 60 * 60_000;

/** The one answer for a wrong address or a wrong password: which of the two is never said. */
export const wrongSignInMessage = 'Wrong e-mail address or password';

export type NewPerson = { email: string; name?: string; password?: string; verified?: boolean };

/**
 * What ends with a person's standing (src/services.ts wires the features that hold them): their
 * console sessions (all, or those in one workspace, or all but one) and the API keys they made.
 */
export type PersonCredentials = {
  endSessions(personId: string, scope: { workspaceId?: string; exceptToken?: string }): Promise<void>;
  revokeKeys(personId: string, workspaceId: string | undefined): Promise<void>;
};

export interface AccountService {
  createPerson(input: NewPerson): Promise<PersonRow>;
  /**
   * Deactivates or reactivates a person, or renames them. Deactivating ends their sessions, keys,
   * pending invitations and reset links for good: reactivating brings none of them back.
   */
  updatePerson(personId: string, changes: { active?: boolean; name?: string }): Promise<PersonRow>;
  findPerson(personId: string): Promise<PersonRow>;
  /** The person behind an address and password; 401 (one message) or 429 after too many failures. */
  verifySignIn(email: string, password: string, address: string): Promise<PersonRow>;
  membership(workspaceId: string, personId: string): Promise<Membership | undefined>;
  /** The workspaces a person belongs to, the first being where a sign-in lands. */
  workspacesOf(personId: string): Promise<{ workspace: WorkspaceOfMember; role: MemberRole }[]>;
  /** Adds a person (made if new) to a workspace with a role: the admin API and the CLI. */
  addMember(workspaceId: string, email: string, role: MemberRole): Promise<PersonRow>;
  /** Takes an invitation: the membership, and the person if new (a password is then required). */
  acceptInvitation(
    token: string,
    person: { name?: string; password?: string },
    signedIn: { personId: string | undefined; address: string },
  ): Promise<{ user: PersonRow; workspaceId: string }>;
  /** The address and workspace of an invitation (any state): whose records a refused acceptance is. */
  invitationOf(token: string): Promise<{ email: string; workspaceId: string } | undefined>;
  /**
   * Sets a new password given the current one (failures limited as sign-ins are), and ends every
   * other console session of the person: all but `keepSessionToken`'s.
   */
  changePassword(
    personId: string,
    passwords: { current: string | undefined; new: string },
    from: { address: string; keepSessionToken: string | undefined },
  ): Promise<void>;
  /**
   * A single-use reset link for a person (24 hours), e-mailed when a mailer is set. Who may issue it
   * is the caller's to check (`MemberService.authorizeReset`); `issuer` undefined: the operator.
   */
  issuePasswordReset(
    user: PersonRow,
    issuer?: ResetIssuer,
  ): Promise<{ url: string; expiresAt: Date; emailed: boolean }>;
  /**
   * The forgotten-password flow: a reset link e-mailed to the address when it has an active
   * account and a mailer is set; nothing is said either way. Limited per address and per client.
   */
  requestPasswordReset(email: string, address: string): Promise<void>;
  /** Uses a reset link: the new password, and every console session of the person ends. */
  resetPassword(token: string, password: string): Promise<PersonRow>;
  /** The person with this address and the workspaces they belong to (none for an unknown address). */
  standingOf(email: string): Promise<{ user: PersonRow | undefined; workspaceIds: string[] }>;
  /**
   * On an instance without people: the first owner of `workspaceId`, from the given address and
   * password, or else a setup link (24 hours, single use) to print once.
   */
  bootstrapOwner(
    workspaceId: string,
    owner: { email: string; password: string } | undefined,
  ): Promise<{ owner?: PersonRow; setupUrl?: string }>;
  /**
   * A person the identity provider vouches for (single sign-on): made at their first sign-in; their
   * role in `workspaceId` from the provider's role claim at every sign-in, or else the default role
   * (at every sign-in with a role claim configured, at the first without). 401 when deactivated.
   */
  provisionFromProvider(
    identity: { email: string; name: string; claimedRole: MemberRole | undefined },
    workspaceId: string,
    roles: { defaultRole: MemberRole | undefined; claimConfigured: boolean },
  ): Promise<PersonRow>;
  /**
   * Whether a setup link is still live (the setup page asks before showing its form), and whether
   * the instance has its first owner already (then a restart prints no new link: they sign in).
   */
  setupState(token: string): Promise<{ pending: boolean; ownerExists: boolean }>;
  /** Uses the setup link: the first owner of workspace `default`. */
  completeSetup(token: string, owner: { email: string; password: string; name?: string }): Promise<PersonRow>;
}

export function createAccountService(dependencies: {
  repository: PeopleRepository;
  attempts: AttemptCounter;
  baseUrl: string;
  mailer: Mailer | undefined;
  afterCommit: (callback: () => unknown) => Promise<void>;
  /** Called when a person's standing changes: cached key authentications must not outlive it. */
  membershipChanged: () => void;
  credentials: PersonCredentials;
  /** The workspace a setup link makes its owner in (`default`, the bootstrap's). */
  firstWorkspaceId: () => Promise<string | undefined>;
  logger: { warn(object: object, message: string): void };
  now?: () => Date;
}): AccountService {
  const { repository, attempts, baseUrl, mailer, afterCommit, membershipChanged, credentials, logger } =
    dependencies;
  const now = dependencies.now ?? (() => new Date());
  const limit = createSignInLimit(attempts);
  const resetLinks = createResetLinks({ repository, baseUrl, mailer, afterCommit, logger, now });

  async function requirePerson(personId: string): Promise<PersonRow> {
    const user = await repository.findPerson(personId);
    if (!user) throw new NotFoundError('User not found');
    return user;
  }

  async function createPerson({ email, name, password, verified }: NewPerson): Promise<PersonRow> {
    const address = normalEmail(email);
    const exists = () => new ConflictError('A user with this e-mail exists');
    if (await repository.findPersonByEmail(address)) throw exists();
    if (password !== undefined) checkPasswordStrength(password);
    const passwordHash = password === undefined ? null : await hashPassword(password);
    try {
      return await repository.insertPerson({
        id: randomUUID(),
        email: address,
        name: name?.trim() ?? '',
        passwordHash,
        verified: verified ?? false,
      });
    } catch (error) {
      // Another request (or node) made the same address while the password was hashed.
      throw isUniqueViolation(error) ? exists() : error;
    }
  }

  return {
    createPerson,
    findPerson: requirePerson,

    async updatePerson(personId, changes) {
      const before = await requirePerson(personId);
      const updated = await repository.updatePerson(personId, {
        ...(changes.active !== undefined && { active: changes.active }),
        ...(changes.name !== undefined && { name: changes.name.trim() }),
      });
      if (before.active && changes.active === false) {
        // For good: a reactivated person signs in afresh and makes new keys.
        await credentials.endSessions(personId, {});
        await credentials.revokeKeys(personId, undefined);
        await repository.revokeIssuedBy(personId, undefined, now());
      }
      membershipChanged();
      return updated!;
    },

    async verifySignIn(email, password, address) {
      const user = await repository.findPersonByEmail(normalEmail(email));
      // The decoy makes an unknown address as slow as a wrong password.
      const matches = await limit.check(email, address, async () => {
        const verified = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
        return verified && user?.passwordHash !== undefined && user.passwordHash !== null && user.active;
      });
      if (!matches || !user) throw new UnauthorizedError(wrongSignInMessage);
      return user;
    },

    membership: (workspaceId, personId) => repository.findMembership(workspaceId, personId),
    workspacesOf: (personId) => repository.workspacesOf(personId),

    async addMember(workspaceId, email, role) {
      const user =
        (await repository.findPersonByEmail(normalEmail(email))) ?? (await createPerson({ email }));
      await repository.putMembership(workspaceId, user.id, role);
      membershipChanged();
      return user;
    },

    async acceptInvitation(token, person, signedIn) {
      const invitation = await repository.acceptInvitation(hashLinkToken(token), now());
      if (!invitation) throw new NotFoundError('This invitation is unknown, used, revoked or expired');
      const existing = await repository.findPersonByEmail(invitation.email);
      // Without a signed-in browser, a password is needed whether or not the address has an account
      // (the same answer either way).
      const signedInAsInvitee = existing !== undefined && existing.id === signedIn.personId;
      if (person.password === undefined && !signedInAsInvitee)
        throw new ValidationError('password', 'is required: sign in first, or give a password');
      let user: PersonRow;
      if (existing) {
        // The link is shown to the inviter too: joining as an existing person takes their password
        // (or their signed-in browser), never the link alone; and a wrong one counts as a failed sign-in.
        const proven =
          signedInAsInvitee ||
          (await limit.check(
            existing.email,
            signedIn.address,
            async () =>
              existing.passwordHash !== null &&
              (await verifyPassword(person.password!, existing.passwordHash)),
          ));
        if (!proven || !existing.active) throw new UnauthorizedError(wrongSignInMessage);
        user = existing;
      } else {
        user = await createPerson({
          email: invitation.email,
          name: person.name,
          password: person.password,
          // Proven by the mailed link only when it was mailed.
          verified: mailer !== undefined,
        });
      }
      await repository.putMembership(invitation.workspaceId, user.id, invitation.role);
      membershipChanged();
      return { user, workspaceId: invitation.workspaceId };
    },

    invitationOf: (token) => repository.findInvitation(hashLinkToken(token)),

    async changePassword(personId, passwords, from) {
      const user = await requirePerson(personId);
      if (user.passwordHash !== null) {
        const stored = user.passwordHash;
        const matches = await limit.check(
          user.email,
          from.address,
          async () => passwords.current !== undefined && (await verifyPassword(passwords.current, stored)),
        );
        if (!matches) throw new UnauthorizedError('The current password is wrong');
      }
      checkPasswordStrength(passwords.new, 'new_password');
      await repository.updatePerson(personId, { passwordHash: await hashPassword(passwords.new) });
      // Whoever else held a session (a stolen cookie, a forgotten browser) is signed out.
      await credentials.endSessions(personId, { exceptToken: from.keepSessionToken });
    },

    async issuePasswordReset(user, issuer) {
      const { url, expiresAt } = await resetLinks.issue(user, issuer, 'admin');
      return { url, expiresAt, emailed: mailer !== undefined };
    },

    async requestPasswordReset(email, address) {
      // Every request counts: the flow sends e-mail, so it may not be a way to flood a mailbox.
      await limit.spend(email, address);
      const user = await repository.findPersonByEmail(normalEmail(email));
      if (!user?.active || !mailer) return;
      await resetLinks.issue(user, undefined, 'self');
    },

    async resetPassword(token, password) {
      checkPasswordStrength(password);
      const used = await repository.consumeSingleUseToken(hashLinkToken(token), 'password_reset', now());
      if (!used?.userId) throw new NotFoundError('This reset link is unknown, used or expired');
      const user = await repository.updatePerson(used.userId, { passwordHash: await hashPassword(password) });
      if (!user) throw new NotFoundError('User not found');
      await credentials.endSessions(user.id, {});
      return user;
    },

    async standingOf(email) {
      const user = await repository.findPersonByEmail(normalEmail(email));
      if (!user) return { user: undefined, workspaceIds: [] };
      const workspaces = await repository.workspacesOf(user.id);
      return { user, workspaceIds: workspaces.map(({ workspace }) => workspace.id) };
    },

    async bootstrapOwner(workspaceId, owner) {
      if (await repository.hasPeople()) return {};
      if (owner) {
        try {
          const user = await createPerson({ email: owner.email, password: owner.password, verified: true });
          await repository.putMembership(workspaceId, user.id, 'owner');
          return { owner: user };
        } catch (error) {
          // Another node starting at the same moment made the owner first.
          if (error instanceof ConflictError) return {};
          throw error;
        }
      }
      // One live link at a time: a restart within its 24 hours prints nothing new.
      if (await repository.hasLiveTokenOf('setup', now())) return {};
      const token = newLinkToken('lsu');
      const at = now();
      await repository.insertSingleUseToken({
        id: randomUUID(),
        purpose: 'setup',
        tokenHash: hashLinkToken(token),
        createdAt: at,
        expiresAt: new Date(at.getTime() + setupLifetimeMs),
      });
      return { setupUrl: linkTo(baseUrl, 'setup', token) };
    },

    async provisionFromProvider(identity, workspaceId, { defaultRole, claimConfigured }) {
      const existing = await repository.findPersonByEmail(identity.email);
      if (existing && !existing.active) throw new UnauthorizedError('This account is deactivated');
      const user =
        existing ?? (await createPerson({ email: identity.email, name: identity.name, verified: true }));
      if (existing && !existing.verified) await repository.updatePerson(existing.id, { verified: true });
      const role = claimConfigured
        ? (identity.claimedRole ?? defaultRole)
        : existing
          ? undefined
          : defaultRole;
      if (role) {
        try {
          await repository.putMembership(workspaceId, user.id, role);
          membershipChanged();
        } catch (error) {
          // The claim would demote the last owner: they stay owner until another owner exists.
          if (!(error instanceof LastOwnerRefusal)) throw error;
        }
      }
      return user;
    },

    async setupState(token) {
      const [pending, ownerExists] = await Promise.all([
        repository.hasLiveToken(hashLinkToken(token), 'setup', now()),
        repository.hasPeople(),
      ]);
      return { pending, ownerExists };
    },

    async completeSetup(token, owner) {
      checkPasswordStrength(owner.password);
      const workspaceId = await dependencies.firstWorkspaceId();
      const used = await repository.consumeSingleUseToken(hashLinkToken(token), 'setup', now());
      if (!used || !workspaceId) throw new NotFoundError('This setup link is unknown, used or expired');
      if (await repository.hasPeople()) throw new ConflictError('This instance already has its first owner');
      const user = await createPerson({ ...owner, verified: true });
      await repository.putMembership(workspaceId, user.id, 'owner');
      return user;
    },
  };
}
