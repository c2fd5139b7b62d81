import { TooManyRequestsError } from '../../../errors.js';
import type { AttemptCounter } from '../../../platform/attempt-counter.js';
import { hashLinkToken, normalEmail } from './tokens.js';

/** Failed sign-ins allowed per e-mail address and per client address in one window. */
export const signInFailureLimit = 10;
const signInWindowMs = 15 * 60_000;

/**
 * The one limit on guessing passwords: every check of a password a caller typed (a sign-in, an
 * invitation taken by an existing account, a password change) and every forgotten-password request
 * counts against the address and the client (docs/security.md#people-and-roles). Counted in Redis
 * when set, so every node agrees.
 */
export function createSignInLimit(attempts: AttemptCounter) {
  /** The keys counted: per address and per e-mail (by hash: an address is never a Redis key). */
  const keysOf = (email: string, address: string) => [
    `sign-in-failures:address:${address}`,
    `sign-in-failures:email:${hashLinkToken(normalEmail(email))}`,
  ];

  async function refuseWhenOver(keys: string[]): Promise<void> {
    const counts = await Promise.all(keys.map((key) => attempts.peek(key)));
    const over = counts.filter((count) => count.attempts >= signInFailureLimit);
    if (over.length === 0) return;
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil(Math.max(...over.map((count) => count.resetInMs)) / 1000),
    );
    throw new TooManyRequestsError(
      'too_many_sign_ins',
      `Too many failed sign-ins for this address or from this network; retry in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    );
  }

  const count = (keys: string[]) => Promise.all(keys.map((key) => attempts.count(key, signInWindowMs)));

  return {
    /** Runs a check of a typed password: 429 once over the limit, and a failure counted. */
    async check(email: string, address: string, check: () => Promise<boolean>): Promise<boolean> {
      const keys = keysOf(email, address);
      await refuseWhenOver(keys);
      const matches = await check();
      if (!matches) await count(keys);
      return matches;
    },
    /** Counts a request that may not be repeated freely (a forgotten-password e-mail): 429 once over. */
    async spend(email: string, address: string): Promise<void> {
      const keys = keysOf(email, address);
      await refuseWhenOver(keys);
      await count(keys);
    },
  };
}
