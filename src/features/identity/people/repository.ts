import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Page } from '../../../core/pagination.js';
import type { MemberRole } from '../../../core/roles.js';
import type { Database } from '../../../platform/database/connection.js';
import { pageWithTotal, totalOf } from '../../../platform/database/pages.js';
import { workspaces } from '../workspaces/tables.js';
import { invitations, memberships, singleUseTokens, users } from './tables.js';

export type PersonRow = typeof users.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;
export type WorkspaceOfMember = {
  id: string;
  name: string;
  settings: typeof workspaces.$inferSelect.settings;
};
/** An active person's membership of one workspace. */
export type Membership = { user: PersonRow; workspace: WorkspaceOfMember; role: MemberRole };
export type MemberRow = { user: PersonRow; role: MemberRole; createdAt: Date };

/** Raised inside a transaction when a change would leave a workspace without an owner. */
export class LastOwnerRefusal extends Error {}

/** A single-use token of the purpose that is neither used nor expired at `at`. */
const liveToken = (purpose: 'setup' | 'password_reset', at: Date) =>
  and(
    eq(singleUseTokens.purpose, purpose),
    isNull(singleUseTokens.usedAt),
    isNull(singleUseTokens.revokedAt),
    gt(singleUseTokens.expiresAt, at),
  );

/** An invitation nobody accepted or revoked (expired ones included: revoking them costs nothing). */
const pendingInvitation = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

export function createPeopleRepository(database: Database) {
  /** Locks the workspace's memberships and fails when `change` would leave no owner. */
  async function guardLastOwner(
    transaction: Database,
    workspaceId: string,
    userId: string,
    newRole: MemberRole | undefined,
  ): Promise<MemberRole | undefined> {
    const rows = await transaction.execute(
      sql`SELECT user_id, role FROM ${memberships} WHERE workspace_id = ${workspaceId} FOR UPDATE`,
    );
    const members = (rows as unknown as { rows: { user_id: string; role: MemberRole }[] }).rows;
    const current = members.find((member) => member.user_id === userId)?.role;
    if (current === 'owner' && newRole !== 'owner') {
      const owners = members.filter((member) => member.role === 'owner').length;
      if (owners <= 1) throw new LastOwnerRefusal();
    }
    return current;
  }

  return {
    async insertPerson(row: typeof users.$inferInsert): Promise<PersonRow> {
      const [user] = await database.insert(users).values(row).returning();
      return user!;
    },

    async findPerson(id: string): Promise<PersonRow | undefined> {
      const [user] = await database.select().from(users).where(eq(users.id, id));
      return user;
    },

    async findPersonByEmail(email: string): Promise<PersonRow | undefined> {
      const [user] = await database.select().from(users).where(eq(users.email, email));
      return user;
    },

    async updatePerson(
      id: string,
      changes: Partial<Pick<PersonRow, 'name' | 'passwordHash' | 'active' | 'verified'>>,
    ): Promise<PersonRow | undefined> {
      const [user] = await database.update(users).set(changes).where(eq(users.id, id)).returning();
      return user;
    },

    async hasPeople(): Promise<boolean> {
      const [row] = await database.select({ id: users.id }).from(users).limit(1);
      return row !== undefined;
    },

    /** An active person's membership of a workspace, if they have one. */
    async findMembership(workspaceId: string, userId: string): Promise<Membership | undefined> {
      const [row] = await database
        .select({
          user: users,
          workspace: { id: workspaces.id, name: workspaces.name, settings: workspaces.settings },
          role: memberships.role,
        })
        .from(memberships)
        .innerJoin(users, and(eq(users.id, memberships.userId), eq(users.active, true)))
        .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
        .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
      return row;
    },

    /** The workspaces a person belongs to, oldest membership first. */
    async workspacesOf(userId: string): Promise<{ workspace: WorkspaceOfMember; role: MemberRole }[]> {
      return database
        .select({
          workspace: { id: workspaces.id, name: workspaces.name, settings: workspaces.settings },
          role: memberships.role,
        })
        .from(memberships)
        .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
        .where(eq(memberships.userId, userId))
        .orderBy(asc(memberships.createdAt), asc(workspaces.id));
    },

    async listMembers(workspaceId: string, skip: number, limit: number): Promise<Page<MemberRow>> {
      const scope = eq(memberships.workspaceId, workspaceId);
      return pageWithTotal(
        database
          .select({ user: users, role: memberships.role, createdAt: memberships.createdAt })
          .from(memberships)
          .innerJoin(users, eq(users.id, memberships.userId))
          .where(scope)
          .orderBy(asc(memberships.createdAt), asc(users.id))
          .offset(skip)
          .limit(limit),
        totalOf(database, memberships, scope),
      );
    },

    async countMembers(workspaceId: string): Promise<number> {
      const [row] = await database
        .select({ value: count() })
        .from(memberships)
        .where(eq(memberships.workspaceId, workspaceId));
      return row?.value ?? 0;
    },

    /** Adds the person to the workspace, or sets their role there if they already belong. */
    async putMembership(workspaceId: string, userId: string, role: MemberRole): Promise<void> {
      await database.transaction(async (transaction) => {
        await guardLastOwner(transaction as unknown as Database, workspaceId, userId, role);
        await transaction
          .insert(memberships)
          .values({ workspaceId, userId, role })
          .onConflictDoUpdate({ target: [memberships.workspaceId, memberships.userId], set: { role } });
      });
    },

    /**
     * Sets a member's role; their previous role, or undefined when they are not a member.
     * Throws LastOwnerRefusal for the last owner's demotion.
     */
    async setRole(workspaceId: string, userId: string, role: MemberRole): Promise<MemberRole | undefined> {
      return database.transaction(async (transaction) => {
        const previous = await guardLastOwner(transaction as unknown as Database, workspaceId, userId, role);
        if (previous === undefined) return undefined;
        await transaction
          .update(memberships)
          .set({ role })
          .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
        return previous;
      });
    },

    /** Removes a member; their role, or undefined when they were not one. Throws LastOwnerRefusal. */
    async removeMember(workspaceId: string, userId: string): Promise<MemberRole | undefined> {
      return database.transaction(async (transaction) => {
        const previous = await guardLastOwner(
          transaction as unknown as Database,
          workspaceId,
          userId,
          undefined,
        );
        if (previous === undefined) return undefined;
        await transaction
          .delete(memberships)
          .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
        return previous;
      });
    },

    async insertInvitation(row: typeof invitations.$inferInsert): Promise<InvitationRow> {
      const [invitation] = await database.insert(invitations).values(row).returning();
      return invitation!;
    },

    /** Takes a live invitation by its token's hash: marks it accepted, once. */
    async acceptInvitation(tokenHash: string, at: Date): Promise<InvitationRow | undefined> {
      const [invitation] = await database
        .update(invitations)
        .set({ acceptedAt: at })
        .where(and(eq(invitations.tokenHash, tokenHash), pendingInvitation, gt(invitations.expiresAt, at)))
        .returning();
      return invitation;
    },

    async listPendingInvitations(workspaceId: string, at: Date): Promise<InvitationRow[]> {
      return database
        .select()
        .from(invitations)
        .where(
          and(eq(invitations.workspaceId, workspaceId), pendingInvitation, gt(invitations.expiresAt, at)),
        )
        .orderBy(asc(invitations.createdAt))
        .limit(500);
    },

    async revokeInvitation(workspaceId: string, id: string, at: Date): Promise<InvitationRow | undefined> {
      const [invitation] = await database
        .update(invitations)
        .set({ revokedAt: at })
        .where(and(eq(invitations.workspaceId, workspaceId), eq(invitations.id, id), pendingInvitation))
        .returning();
      return invitation;
    },

    /** The address and workspace of an invitation by its token's hash, whatever its state. */
    async findInvitation(
      tokenHash: string,
    ): Promise<Pick<InvitationRow, 'email' | 'workspaceId'> | undefined> {
      const [row] = await database
        .select({ email: invitations.email, workspaceId: invitations.workspaceId })
        .from(invitations)
        .where(eq(invitations.tokenHash, tokenHash));
      return row;
    },

    /**
     * Revokes the pending invitations and live reset links a person issued: in one workspace, or in
     * all of them (`workspaceId` undefined). How many were revoked.
     */
    async revokeIssuedBy(userId: string, workspaceId: string | undefined, at: Date): Promise<number> {
      const invitationScope =
        workspaceId === undefined ? undefined : eq(invitations.workspaceId, workspaceId);
      const linkScope = workspaceId === undefined ? undefined : eq(singleUseTokens.workspaceId, workspaceId);
      const invited = await database
        .update(invitations)
        .set({ revokedAt: at })
        .where(and(eq(invitations.invitedBy, userId), pendingInvitation, invitationScope))
        .returning({ id: invitations.id });
      const links = await database
        .update(singleUseTokens)
        .set({ revokedAt: at })
        .where(
          and(
            eq(singleUseTokens.issuedBy, userId),
            isNull(singleUseTokens.usedAt),
            isNull(singleUseTokens.revokedAt),
            linkScope,
          ),
        )
        .returning({ id: singleUseTokens.id });
      return invited.length + links.length;
    },

    async insertSingleUseToken(row: typeof singleUseTokens.$inferInsert): Promise<void> {
      await database.insert(singleUseTokens).values(row);
    },

    /** Uses a live token of the purpose, once: its row, or undefined when unknown, used or expired. */
    async consumeSingleUseToken(
      tokenHash: string,
      purpose: 'setup' | 'password_reset',
      at: Date,
    ): Promise<typeof singleUseTokens.$inferSelect | undefined> {
      const [token] = await database
        .update(singleUseTokens)
        .set({ usedAt: at })
        .where(and(eq(singleUseTokens.tokenHash, tokenHash), liveToken(purpose, at)))
        .returning();
      return token;
    },

    /** Whether any live token of the purpose exists. */
    async hasLiveTokenOf(purpose: 'setup' | 'password_reset', at: Date): Promise<boolean> {
      const [row] = await database
        .select({ id: singleUseTokens.id })
        .from(singleUseTokens)
        .where(liveToken(purpose, at))
        .limit(1);
      return row !== undefined;
    },

    /** Whether a live token of the purpose exists (the setup page asks before showing its form). */
    async hasLiveToken(tokenHash: string, purpose: 'setup' | 'password_reset', at: Date): Promise<boolean> {
      const [row] = await database
        .select({ id: singleUseTokens.id })
        .from(singleUseTokens)
        .where(and(eq(singleUseTokens.tokenHash, tokenHash), liveToken(purpose, at)));
      return row !== undefined;
    },
  };
}

export type PeopleRepository = ReturnType<typeof createPeopleRepository>;
