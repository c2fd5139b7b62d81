import type { FastifyRequest } from 'fastify';
import { recordConsoleEvent } from '../../../http/authorization.js';
import type { AuditService } from '../audit/index.js';
import type { AccountService } from './accounts.js';
import { normalEmail } from './tokens.js';

/**
 * Records a refused password check or a used single-use link in every workspace the person
 * belongs to (and `alsoIn`, an invitation's), so each workspace's admins see what was tried against
 * their people; an address without an account stays an instance-level record, the operator's.
 */
export async function recordInWorkspacesOf(
  { audit, accounts }: { audit: AuditService; accounts: Pick<AccountService, 'standingOf'> },
  request: FastifyRequest,
  event: { status: number; email: string; resource: string; alsoIn?: string },
): Promise<void> {
  const { user, workspaceIds } = await accounts.standingOf(event.email);
  const workspaces = new Set(workspaceIds);
  if (event.alsoIn) workspaces.add(event.alsoIn);
  const actor = { type: 'user' as const, id: user?.id ?? null, label: normalEmail(event.email) };
  const resource = { type: event.resource, id: user?.id };
  const targets = workspaces.size > 0 ? [...workspaces] : [null];
  for (const workspaceId of targets)
    await recordConsoleEvent(audit, request, { status: event.status, actor, workspaceId, resource });
}

/** The status of an answer an error makes: a refused check is 401 or 429. */
export const statusOf = (error: unknown): number => (error as { status?: number }).status ?? 500;
