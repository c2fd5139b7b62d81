import { randomUUID } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { AuditEntry } from '../../../core/audit-entry.js';
import type { Page, Pagination } from '../../../core/pagination.js';
import { type AuditRecord, chainHash, chainKeyOf, genesisHash, headMac, withoutSecrets } from './record.js';
import { type AuditFilter, type AuditRepository, type AuditRow, pruneAction } from './repository.js';

export { type AuditActor, type AuditEntry, actorOf } from '../../../core/audit-entry.js';

export type ChainCheck = { records: number; intact: boolean; brokenAt?: number; problem?: string };

export interface AuditService {
  /** Appends a record (inside the caller's transaction when there is one). */
  append(entry: AuditEntry): Promise<void>;
  /**
   * The statement that appends a record, for a transaction to send as its last (see
   * `TransactionScope.run`): the commit then follows it without waiting for its answer.
   */
  appendStatement(entry: AuditEntry): SQL;
  list(filter: AuditFilter, pagination: Pagination): Promise<Page<AuditRow>>;
  /** Every record of the filter, newest first, a batch at a time. */
  stream(filter: AuditFilter): AsyncGenerator<AuditRow>;
  /** Recomputes the chain from its first kept record; where it breaks, if it does. */
  verify(): Promise<ChainCheck>;
  /** Deletes records older than the retention (none when it is 0); how many. */
  prune(retentionDays: number): Promise<number>;
}

/** The record of an entry: its GUID and time stamped, long texts cut, secrets stripped. */
function recordOf(entry: AuditEntry, at: Date): AuditRecord {
  return {
    id: randomUUID(),
    workspaceId: entry.workspaceId,
    at,
    actorType: entry.actor.type,
    actorId: entry.actor.id,
    actorLabel: entry.actor.label.slice(0, 300),
    action: entry.action,
    resourceType: entry.resource?.type ?? null,
    resourceId: entry.resource?.id ?? null,
    status: entry.status,
    requestId: entry.request?.id ?? null,
    ip: entry.request?.ip ?? null,
    userAgent: entry.request?.userAgent?.slice(0, 500) ?? null,
    changes: entry.changes === undefined ? null : (withoutSecrets(entry.changes) as Record<string, unknown>),
  };
}

const exportBatch = 500;
const verifyBatch = 1_000;
const pruneBatch = 5_000;

/**
 * The audit log. `chainKey` (derived from LECTERN_SECRET) keys the chain: each record's hash is an
 * HMAC under it, and so is the head's, so that nobody with the database alone can rewrite the
 * records after an edit or move the head back over deleted ones.
 */
export function createAuditService(dependencies: {
  repository: AuditRepository;
  options: { chainKey: Buffer; now?: () => Date };
}): AuditService {
  const { repository, options } = dependencies;
  const now = options.now ?? (() => new Date());
  const chainKey = chainKeyOf(options.chainKey);
  return {
    async append(entry) {
      await repository.append(recordOf(entry, now()), chainKey);
    },

    appendStatement(entry) {
      return repository.appendStatement(recordOf(entry, now()), chainKey);
    },

    async list(filter, { skip, limit }) {
      const [rows, total] = await Promise.all([
        repository.list(filter, skip, limit),
        repository.count(filter),
      ]);
      return { rows, total };
    },

    async *stream(filter) {
      let before: number | undefined;
      for (;;) {
        const rows = await repository.list(filter, 0, exportBatch, before);
        yield* rows;
        if (rows.length < exportBatch) return;
        before = rows.at(-1)!.position;
      }
    },

    async verify() {
      // The first kept record follows genesis, or the records a retention cut says it removed.
      const cuts = new Set(await repository.cuts());
      let after = 0;
      let previous: string | undefined;
      let records = 0;
      let lastPosition = 0;
      let keyedSeen = false;
      const broken = (position: number, problem: string): ChainCheck => ({
        records,
        intact: false,
        brokenAt: position,
        problem,
      });
      for (;;) {
        const rows = await repository.chainAfter(after, verifyBatch);
        for (const row of rows) {
          const expected = previous ?? genesisHash;
          const followsCut = previous === undefined && cuts.has(row.previousHash);
          if (row.previousHash !== expected && !followsCut)
            return broken(
              row.position,
              previous === undefined
                ? 'the oldest records were removed, and no retention cut says so'
                : 'a record is missing before it',
            );
          // Once the chain is keyed, an unkeyed record is one rewritten without the key.
          if (keyedSeen && !row.keyed) return broken(row.position, 'its content was changed');
          keyedSeen ||= row.keyed;
          const { position: _position, previousHash, hash, keyed, ...fields } = row;
          if (chainHash(previousHash, fields as AuditRecord, keyed ? chainKey.key : undefined) !== hash)
            return broken(row.position, 'its content was changed');
          previous = hash;
          lastPosition = row.position;
          records += 1;
        }
        if (rows.length < verifyBatch) break;
        after = rows.at(-1)!.position;
      }
      // The head is where the last append left the chain: records removed after it show here, and a
      // head moved back over them has no HMAC for where it now points.
      const head = await repository.head();
      const headHash = head?.hash ?? genesisHash;
      if (headHash !== (previous ?? genesisHash))
        return broken(
          lastPosition + 1,
          'the newest records were removed: the chain’s head is not the last record',
        );
      if ((keyedSeen || head?.mac) && head?.mac !== headMac(chainKey.key, headHash))
        return broken(lastPosition + 1, 'the chain’s head was moved: its HMAC does not match it');
      return { records, intact: true };
    },

    async prune(retentionDays) {
      if (retentionDays <= 0) return 0;
      const before = new Date(now().getTime() - retentionDays * 24 * 60 * 60_000);
      let total = 0;
      for (;;) {
        const deleted = await repository.prune(
          before,
          pruneBatch,
          (removed) =>
            recordOf(
              {
                workspaceId: null,
                actor: { type: 'system', id: null, label: 'audit retention' },
                action: pruneAction,
                resource: { type: 'audit_log', id: undefined },
                status: 200,
                changes: {
                  before: before.toISOString(),
                  removed: removed.count,
                  removed_through: removed.throughHash,
                  removed_through_position: removed.throughPosition,
                },
              },
              now(),
            ),
          chainKey,
        );
        total += deleted;
        if (deleted < pruneBatch) return total;
      }
    },
  };
}
