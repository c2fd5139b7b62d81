import { and, desc, eq, gte, like, lt, lte, type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../../platform/database/connection.js';
import { type AuditRecord, type ChainKey, canonicalRecord } from './record.js';
import { auditChain, auditLog } from './tables.js';

export type AuditRow = typeof auditLog.$inferSelect;

/** The action of a retention cut's own record. */
export const pruneAction = 'DELETE audit_log (retention)';

/** Which records: a workspace's, by actor, resource, action prefix and time. */
export type AuditFilter = {
  workspaceId: string;
  actor?: string;
  resource?: string;
  action?: string;
  since?: Date;
  until?: Date;
};

function whereOf(filter: AuditFilter): SQL | undefined {
  return and(
    eq(auditLog.workspaceId, filter.workspaceId),
    filter.actor ? eq(auditLog.actorId, filter.actor) : undefined,
    filter.resource ? eq(auditLog.resourceId, filter.resource) : undefined,
    filter.action
      ? like(auditLog.action, `${filter.action.replace(/[\\%_]/g, (character) => `\\${character}`)}%`)
      : undefined,
    filter.since ? gte(auditLog.at, filter.since) : undefined,
    filter.until ? lte(auditLog.at, filter.until) : undefined,
  );
}

export function createAuditRepository(database: Database) {
  return {
    /**
     * The statement that appends one record chained to the last (the `audit_log_append` function of
     * the migrations): it locks the chain's head, hashes the record onto it (an HMAC under the chain's
     * key, made of PostgreSQL's `sha256` over the key's two padded forms: the same digest `chainHash`
     * computes) and moves the head, with the head's own HMAC. Inside a request's transaction the lock is
     * held to its commit, so the change and its record land together, in chain order.
     */
    appendStatement(record: AuditRecord, chainKey: ChainKey): SQL {
      return sql`SELECT audit_log_append(${record.id}, ${record.workspaceId},
        ${record.at.toISOString()}, ${record.actorType}, ${record.actorId}, ${record.actorLabel},
        ${record.action}, ${record.resourceType}, ${record.resourceId}, ${record.status}, ${record.requestId},
        ${record.ip}, ${record.userAgent},
        ${record.changes === null ? null : JSON.stringify(record.changes)}::jsonb, ${canonicalRecord(record)},
        decode(${chainKey.inner.toString('hex')}, 'hex'), decode(${chainKey.outer.toString('hex')}, 'hex'))`;
    },

    async append(record: AuditRecord, chainKey: ChainKey): Promise<void> {
      await database.execute(this.appendStatement(record, chainKey));
    },

    /** A page of records, newest first; `before` continues after a position (the export's batches). */
    async list(filter: AuditFilter, skip: number, limit: number, before?: number): Promise<AuditRow[]> {
      return database
        .select()
        .from(auditLog)
        .where(and(whereOf(filter), before === undefined ? undefined : lt(auditLog.position, before)))
        .orderBy(desc(auditLog.position))
        .offset(skip)
        .limit(limit);
    },

    async count(filter: AuditFilter): Promise<number> {
      const [row] = await database
        .select({ value: sql<number>`count(*)::int` })
        .from(auditLog)
        .where(whereOf(filter));
      return row?.value ?? 0;
    },

    /** The whole chain in order, a batch at a time after `after` (verification). */
    async chainAfter(after: number, limit: number): Promise<AuditRow[]> {
      return database
        .select()
        .from(auditLog)
        .where(sql`${auditLog.position} > ${after}`)
        .orderBy(auditLog.position)
        .limit(limit);
    },

    /** The chain's head: the newest record's hash as the last append left it, and its HMAC. */
    async head(): Promise<{ hash: string; mac: string | null } | undefined> {
      const [row] = await database
        .select({ hash: auditChain.hash, mac: auditChain.mac })
        .from(auditChain)
        .where(eq(auditChain.id, 1));
      return row;
    },

    /** The hashes retention cuts say they removed the chain through (each cut is a record). */
    async cuts(): Promise<string[]> {
      const rows = await database
        .select({ through: sql<string>`${auditLog.changes} ->> 'removed_through'` })
        .from(auditLog)
        .where(eq(auditLog.action, pruneAction));
      return rows.map((row) => row.through).filter((through) => typeof through === 'string');
    },

    /**
     * Deletes records older than `before` (retention), oldest first, and records the cut in the same
     * transaction (`cut` builds its record from what was removed); how many were removed.
     */
    async prune(
      before: Date,
      batch: number,
      cut: (removed: { count: number; throughHash: string; throughPosition: number }) => AuditRecord,
      chainKey: ChainKey,
    ): Promise<number> {
      return database.transaction(async (transaction) => {
        // The delete trigger lets a record go only in a transaction that names the chain's key
        // (drizzle/0019): a chain pruned before its first keyed append learns the key here.
        const inner = chainKey.inner.toString('hex');
        await transaction.execute(sql`SELECT set_config('lectern.audit_pruning_key', ${inner}, true)`);
        await transaction.execute(sql`UPDATE ${auditChain} SET key_check = encode(sha256(decode(${inner}, 'hex')), 'hex')
          WHERE ${auditChain.id} = 1 AND ${auditChain.keyCheck} IS NULL`);
        const deleted = rowsOf<{ position: number | string; hash: string }>(
          await transaction.execute(sql`
            DELETE FROM ${auditLog} WHERE position IN (
              SELECT position FROM ${auditLog} WHERE at < ${before.toISOString()} ORDER BY position LIMIT ${batch})
            RETURNING position, hash`),
        );
        if (deleted.length === 0) return 0;
        const last = deleted.reduce((newest, row) =>
          Number(row.position) > Number(newest.position) ? row : newest,
        );
        await transaction.execute(
          this.appendStatement(
            cut({ count: deleted.length, throughHash: last.hash, throughPosition: Number(last.position) }),
            chainKey,
          ),
        );
        return deleted.length;
      });
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
