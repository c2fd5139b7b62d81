import { z } from 'zod';
import { memberRoles } from '../../../core/roles.js';
import { maximumPasswordLength } from './passwords.js';

export const memberRoleField = z.enum(memberRoles);
const email = z.email({ message: 'must be an e-mail address' }).max(320);
const password = z.string().max(maximumPasswordLength);

export const inviteBody = z.strictObject({ email, role: memberRoleField });
export const roleBody = z.strictObject({ role: memberRoleField });
export const profileBody = z.strictObject({ name: z.string().trim().max(200) });
export const passwordChangeBody = z.strictObject({
  current_password: password.optional().describe('required when the person has a password'),
  new_password: password,
});

/** Console: a sign-in with an address and a password. */
export const personSignInBody = z.strictObject({ email, password });
export const acceptInvitationBody = z.strictObject({
  token: z.string().min(1).max(200),
  name: z.string().trim().max(200).optional(),
  password: password.optional().describe('required for a new account, or to join as an existing one'),
});
export const setupBody = z.strictObject({
  token: z.string().min(1).max(200),
  email,
  name: z.string().trim().max(200).optional(),
  password,
});
export const resetBody = z.strictObject({ token: z.string().min(1).max(200), password });
export const resetRequestBody = z.strictObject({ email });

/** Admin API. */
export const newPersonBody = z.strictObject({
  email,
  name: z.string().trim().max(200).optional(),
  password: password.optional(),
});
export const personChangesBody = z.strictObject({
  active: z.boolean().optional(),
  name: z.string().trim().max(200).optional(),
});
export const memberBody = z.strictObject({ email, role: memberRoleField });
