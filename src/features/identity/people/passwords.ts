import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../../../errors.js';

// Passwords are stored as scrypt hashes (memory-hard: a stolen table costs an attacker ~32 MiB and
// ~50 ms per guess per core). The parameters are stored with each hash, so raising them later
// leaves existing hashes readable.

export const minimumPasswordLength = 12;
export const maximumPasswordLength = 256;

const cost = { N: 2 ** 15, r: 8, p: 1 };
const keyLength = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      keyLength,
      { ...options, maxmem: 128 * (options.N ?? cost.N) * (options.r ?? cost.r) * 2 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/**
 * Refuses a password that is too short or too long (400 naming `field`). White space at its ends
 * does not count towards the length: twelve spaces are no password.
 */
export function checkPasswordStrength(password: string, field = 'password'): void {
  if (password.trim().length < minimumPasswordLength)
    throw new ValidationError(
      field,
      `must be at least ${minimumPasswordLength} characters, not counting spaces at its ends`,
    );
  if (password.length > maximumPasswordLength)
    throw new ValidationError(field, `must be at most ${maximumPasswordLength} characters`);
}

/** `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Compares in constant time; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash of no password: signing in as an unknown address (or one without a password) checks
 * against it, so the answer takes as long as for a known one and reveals nothing.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(24).toString('base64url'));
  return decoy;
}
