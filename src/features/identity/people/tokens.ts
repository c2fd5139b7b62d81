import { createHash, randomBytes } from 'node:crypto';

/** A single-use secret for a link (invitation, setup, password reset): 256 random bits, recognisable by its prefix. */
export function newLinkToken(prefix: 'lin' | 'lsu' | 'lpr'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** Only this is stored: a leaked table holds no usable link. */
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A console page's link carrying the token (`{base}/invite?token=…`). */
export function linkTo(baseUrl: string, page: 'invite' | 'setup' | 'reset-password', token: string): string {
  return `${baseUrl}/${page}?token=${encodeURIComponent(token)}`;
}

/** E-mail addresses are compared and stored lower-cased. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}
