import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The instance secret: LECTERN_SECRET, or one generated on first start and kept in the data dir so
 * that signed URLs and encrypted provider keys survive restarts. Several nodes must share one value.
 */
export function loadOrCreateSecret(configured: string | undefined, dataDirectory: string): string {
  if (configured) return configured;
  const file = path.join(dataDirectory, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDirectory, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process on the same data dir created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
  chmodSync(file, 0o600);
  return secret;
}

/** Separate keys per purpose, so a signature can never be replayed as a ciphertext key or vice versa. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'lectern', purpose, 32));
}

export type SecretBox = {
  encrypt(plaintext: string): string;
  decrypt(ciphertext: string): string;
};

const formatVersion = 'v1';

/** AES-256-GCM: provider keys at rest. Output: v1.<iv>.<tag>.<ciphertext>, base64url. */
export function createSecretBox(secret: string): SecretBox {
  const key = deriveKey(secret, 'provider-keys');
  return {
    encrypt(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [formatVersion, iv, tag, ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    decrypt(stored) {
      const [version, iv, tag, ciphertext] = stored.split('.');
      if (version !== formatVersion || !iv || !tag || ciphertext === undefined) {
        throw new Error('Unreadable encrypted value');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
