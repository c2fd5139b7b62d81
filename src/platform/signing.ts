import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from './secrets.js';

export type Verification = 'valid' | 'invalid' | 'expired';

export type Signer = {
  /** A token binding `purpose` and `subject` until `expiresAt` (ms since epoch). */
  sign(purpose: string, subject: string, expiresAt: number): string;
  verify(purpose: string, subject: string, token: string, now?: number): Verification;
};

/** HMAC-SHA256 tokens for stream URLs and signed file URLs: `<expiresAt>.<signature>`. */
export function createSigner(secret: string): Signer {
  const key = deriveKey(secret, 'signing');
  const signature = (purpose: string, subject: string, expiresAt: number) =>
    createHmac('sha256', key).update(`${purpose}\n${subject}\n${expiresAt}`).digest();
  return {
    sign(purpose, subject, expiresAt) {
      return `${expiresAt}.${signature(purpose, subject, expiresAt).toString('base64url')}`;
    },
    verify(purpose, subject, token, now = Date.now()) {
      const match = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return 'invalid';
      const expiresAt = Number(match[1]);
      const given = Buffer.from(match[2]!, 'base64url');
      const expected = signature(purpose, subject, expiresAt);
      // Check the signature before the expiry so a forged token never learns anything from timing.
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return expiresAt > now ? 'valid' : 'expired';
    },
  };
}
