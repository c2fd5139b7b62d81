import { randomUUID } from 'node:crypto';
import type { Mailer } from '../../../platform/mailer.js';
import type { PeopleRepository } from './repository.js';
import { hashLinkToken, linkTo, newLinkToken } from './tokens.js';

const resetLifetimeMs = 24 * 60 * 60_000;

/** Who issues a reset link in a workspace: revoked with their right to issue it there (none: the operator). */
export type ResetIssuer = { userId: string | undefined; workspaceId: string };

/**
 * Password reset links: single use, 24 hours, stored as a hash with who issued them where, and
 * e-mailed once the transaction that made them has committed.
 */
export function createResetLinks(dependencies: {
  repository: PeopleRepository;
  baseUrl: string;
  mailer: Mailer | undefined;
  afterCommit: (callback: () => unknown) => Promise<void>;
  logger: { warn(object: object, message: string): void };
  now: () => Date;
}) {
  const { repository, baseUrl, mailer, afterCommit, logger, now } = dependencies;
  return {
    /** A new link for the person; e-mailed to `email` when a mailer is set. */
    async issue(
      person: { id: string; email: string },
      issuer: ResetIssuer | undefined,
      asked: 'admin' | 'self',
    ): Promise<{ url: string; expiresAt: Date }> {
      const token = newLinkToken('lpr');
      const at = now();
      const expiresAt = new Date(at.getTime() + resetLifetimeMs);
      await repository.insertSingleUseToken({
        id: randomUUID(),
        purpose: 'password_reset',
        userId: person.id,
        tokenHash: hashLinkToken(token),
        issuedBy: issuer?.userId ?? null,
        workspaceId: issuer?.workspaceId ?? null,
        createdAt: at,
        expiresAt,
      });
      const url = linkTo(baseUrl, 'reset-password', token);
      if (mailer) {
        const why =
          asked === 'admin'
            ? 'An administrator issued you a link to set a new Lectern password.'
            : 'Someone (we hope you) asked to set a new Lectern password for this address.';
        await afterCommit(() =>
          mailer
            .send({
              to: person.email,
              subject: 'Set a new Lectern password',
              text: `${why} It works once, within 24 hours:\n\n${url}\n\nIf you did not ask for it, ignore this e-mail and tell your administrator.`,
            })
            .catch((error: unknown) => logger.warn({ err: (error as Error).message }, 'reset e-mail failed')),
        );
      }
      return { url, expiresAt };
    },
  };
}
