import { z } from 'zod';
import { memberRoles, roles } from '../../../core/roles.js';
import { guid, timestamp } from '../../../core/wire.js';

const memberRole = z.enum(memberRoles);
const anyRole = z.enum(roles);

/** A person as others see them. */
export const personSummary = z
  .strictObject({ guid, email: z.string(), name: z.string() })
  .meta({ id: 'UserSummary' });

export const memberResponse = z
  .strictObject({ user: personSummary, role: memberRole })
  .meta({ id: 'Member' });

/** A new invitation: its link (holding the single-use secret) is shown to the inviter this once. */
export const newInvitationResponse = z.strictObject({
  guid,
  email: z.string(),
  role: memberRole,
  invite_url: z.string().describe('single use; its `token` parameter is the secret'),
  expires_at: timestamp,
  emailed: z.boolean().describe('whether it was sent by e-mail (SMTP_URL is set)'),
});

export const pendingInvitationResponse = z
  .strictObject({
    guid,
    email: z.string(),
    role: memberRole,
    invited_by: guid.nullable(),
    created_at: timestamp,
    expires_at: timestamp,
  })
  .meta({ id: 'Invitation' });

export const passwordResetResponse = z.strictObject({
  reset_url: z.string().describe('single use, 24 hours'),
  expires_at: timestamp,
  emailed: z.boolean(),
});

/** Who the caller is (`GET /v1/me`), with the rights the console uses to show what it may do. */
export const meResponse = z.strictObject({
  principal: z.enum(['user', 'key']),
  role: anyRole,
  rights: z.array(z.string()).describe('the rights this principal holds (docs/security.md#people-and-roles)'),
  workspace: z.strictObject({ guid, name: z.string() }),
  user: personSummary.nullable().describe("the person, or a key's creator"),
  key: z.strictObject({ guid, name: z.string(), prefix: z.string() }).nullable(),
});

export const memberWorkspaceResponse = z.strictObject({ guid, name: z.string(), role: memberRole });

export type MemberResponse = z.output<typeof memberResponse>;
export type MeResponse = z.output<typeof meResponse>;
export type PersonSummary = z.output<typeof personSummary>;
export type PendingInvitationResponse = z.output<typeof pendingInvitationResponse>;
export type NewInvitationResponse = z.output<typeof newInvitationResponse>;
