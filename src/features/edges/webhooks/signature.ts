import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks (standardwebhooks.com): a receiver checks a delivery with any of its libraries.

const secretPrefix = 'whsec_';

/** A new signing secret: `whsec_` and the base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `${secretPrefix}${randomBytes(24).toString('base64')}`;
}

/** The three headers of a signed delivery. */
export type SignedHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/**
 * Signs a delivery: HMAC-SHA256 over `<id>.<timestamp>.<body>`, keyed with the secret's bytes (the
 * base64 after `whsec_`), written `v1,<base64>`.
 */
export function signDelivery(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): SignedHeaders {
  const key = Buffer.from(secret.slice(secretPrefix.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
}
