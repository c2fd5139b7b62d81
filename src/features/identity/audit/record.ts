import { createHash, createHmac } from 'node:crypto';
import { canonicalJson } from '../../../core/canonical-json.js';
import { withoutQueryCredentials } from '../../../core/query-credentials.js';
import type { AuditActorType } from '../../../core/roles.js';

/** One audit record as it is chained: every field the hash covers. */
export type AuditRecord = {
  id: string;
  workspaceId: string | null;
  at: Date;
  actorType: AuditActorType;
  actorId: string | null;
  actorLabel: string;
  action: string;
  resourceType: string | null;
  resourceId: string | null;
  status: number;
  requestId: string | null;
  ip: string | null;
  userAgent: string | null;
  changes: Record<string, unknown> | null;
};

/** The first record's `previous_hash`. */
export const genesisHash = '0'.repeat(64);

/** What a record's hash covers besides the previous hash: its canonical form. */
export function canonicalRecord(record: AuditRecord): string {
  return canonicalJson({ ...record, at: record.at.toISOString() });
}

/**
 * The chain's key (derived from LECTERN_SECRET), and HMAC's two padded keys, which the database's
 * append function hashes with: HMAC(k, m) = SHA-256(outer ‖ SHA-256(inner ‖ m)).
 */
export type ChainKey = { key: Buffer; inner: Buffer; outer: Buffer };

export function chainKeyOf(key: Buffer): ChainKey {
  const padded = Buffer.alloc(64);
  key.copy(padded);
  return {
    key,
    inner: Buffer.from(padded.map((byte) => byte ^ 0x36)),
    outer: Buffer.from(padded.map((byte) => byte ^ 0x5c)),
  };
}

/**
 * The record's hash over the previous record's hash, a newline and the record's canonical form: an
 * HMAC under the chain's key for a keyed record (the database's append function computes the same),
 * plain SHA-256 for one appended before the chain was keyed.
 */
export function chainHash(previousHash: string, record: AuditRecord, key?: Buffer): string {
  const digest = key ? createHmac('sha256', key) : createHash('sha256');
  return digest.update(previousHash).update('\n').update(canonicalRecord(record)).digest('hex');
}

/** The head's HMAC: only the key's holder can move the head to a record of their choosing. */
export function headMac(key: Buffer, headHash: string): string {
  return createHmac('sha256', key).update('head\n').update(headHash).digest('hex');
}

/**
 * Names of secrets; `key` (a provider's key is given as `key`); and `headers` (an HTTP Skill's are
 * secret whatever they are called).
 */
const secretName =
  /pass(word)?|secret|token|api[-_]?key|authori[sz]ation|credential|private|cookie|signature|^key$|^headers?$/i;

/**
 * What a change's body may say in the log: the same shape with every secret replaced. A value is
 * secret when its key says so (`api_key`, `password`, `Authorization`…) or when it is the `value`
 * of an entry whose `name` or `key` says so (a Skill's settings, a header list); in any text, a
 * credential-named query parameter's value is too.
 */
export function withoutSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20) return '[too deep]';
  if (Array.isArray(value)) return value.slice(0, 200).map((each) => withoutSecrets(each, depth + 1));
  if (typeof value === 'string') {
    // A URL's query may carry a credential (a signed URL's signature, `?api_key=`).
    const text = withoutQueryCredentials(value);
    return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
  }
  if (!value || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const namesSecret = [object.name, object.key].some(
    (name) => typeof name === 'string' && secretName.test(name),
  );
  return Object.fromEntries(
    Object.entries(object).map(([key, each]) => [
      key,
      secretName.test(key) || (namesSecret && key === 'value')
        ? '[redacted]'
        : withoutSecrets(each, depth + 1),
    ]),
  );
}
