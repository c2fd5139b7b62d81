import { type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../../platform/database/connection.js';
import { leaseChanges, leaseOf, leasesWithout } from './lease-columns.js';
import type { ItemRow, ListedItem, QueueRow } from './repository.js';
import { reviewItems } from './tables.js';

// Leases (docs/review.md#leases). An item's leases are a JSON array on its own row; every statement
// that changes them also sets the two columns read from them (`lease_holders`, `leased_until`), so
// the hot paths — the renewal's lookup, an item's status, the queue's counts — read no JSON.

export type LeasedItem = ListedItem & { leaseExpiresAt: string };

function leaseSet(leases: SQL): SQL {
  const changes = leaseChanges(leases);
  return sql`leases = ${changes.leases}, lease_holders = ${changes.leaseHolders}, leased_until = ${changes.leasedUntil}`;
}

const returned = sql`RETURNING id, generation_id, review_count, created_at, completed_at, 'in_review' AS status,
  leases->-1->>'expires_at' AS lease_expires_at`;

type RawItem = {
  id: string;
  generation_id: string;
  review_count: number;
  created_at: string | Date;
  completed_at: string | Date | null;
  status: 'in_review';
  lease_expires_at: string;
};

function leasedItemOf(row: RawItem, queue: QueueRow): LeasedItem {
  return {
    id: row.id,
    workspaceId: queue.workspaceId,
    queueId: queue.id,
    generationId: row.generation_id,
    leases: [],
    leaseHolders: [],
    leasedUntil: null,
    reviewedBy: [],
    skippedBy: [],
    position: 0,
    reviewCount: row.review_count,
    createdAt: new Date(row.created_at),
    completedAt: row.completed_at === null ? null : new Date(row.completed_at),
    status: row.status,
    leaseExpiresAt: new Date(row.lease_expires_at).toISOString(),
  };
}

export function createLeaseRepository(database: Database) {
  async function leased(statement: SQL, queue: QueueRow): Promise<LeasedItem | undefined> {
    const [row] = rowsOf<RawItem>(await database.execute(statement));
    return row && leasedItemOf(row, queue);
  }

  /**
   * The first item of the queue the reviewer may lease, skipped ones or the others: open, not
   * reviewed by them, whose reviews and others' live leases are fewer than the queue needs. Walked
   * in the order items were added (the open items' index), so it stops at the first that qualifies.
   */
  const candidate = (
    queue: QueueRow,
    reviewer: string,
    skipped: boolean,
    waits: boolean,
  ) => sql`SELECT candidate.id
    FROM ${reviewItems} AS candidate
    WHERE candidate.queue_id = ${queue.id} AND candidate.completed_at IS NULL
      AND NOT (${reviewer}::text = ANY (candidate.reviewed_by))
      AND ${skipped ? sql`` : sql`NOT`} (${reviewer}::text = ANY (candidate.skipped_by))
      AND candidate.review_count + CASE WHEN candidate.leased_until > now()
        THEN (SELECT count(*) FROM jsonb_array_elements(candidate.leases) AS lease
          WHERE (lease->>'expires_at')::timestamptz > now() AND lease->>'reviewer' <> ${reviewer})
        ELSE 0 END < ${queue.reviewsPerItem}
    ORDER BY candidate.position LIMIT 1 FOR UPDATE${waits ? sql`` : sql` SKIP LOCKED`}`;

  return {
    /**
     * Leases the queue's next item for the reviewer, in one statement for each pass: the item they
     * already hold a live lease of (renewed), else the first they may take. The candidate is locked
     * (`FOR UPDATE`) and every condition reads that row alone, so a lease another node committed
     * meanwhile is seen when the row is checked again: no item is ever leased to more people than it
     * still needs. The first pass passes over rows others hold locked (`SKIP LOCKED`: no one waits
     * while another takes an item); finding none that way may only mean that every open item was
     * being taken at that instant (PostgreSQL, several at once), so it asks again waiting for those
     * locks, each row checked again once free. Items the reviewer skipped come after the rest.
     */
    async take(queue: QueueRow, reviewer: string): Promise<LeasedItem | undefined> {
      const lease = leaseSet(sql`${leasesWithout(reviewer)} || ${leaseOf(reviewer, queue.leaseSeconds)}`);
      // Asked before the first pass only: a held lease is never given up between passes.
      const held = sql`SELECT held.id FROM ${reviewItems} AS held
        WHERE held.queue_id = ${queue.id} AND held.completed_at IS NULL
          AND held.lease_holders @> ARRAY[${reviewer}::text] AND held.leased_until > now()
          AND EXISTS (SELECT 1 FROM jsonb_array_elements(held.leases) AS lease
            WHERE lease->>'reviewer' = ${reviewer} AND (lease->>'expires_at')::timestamptz > now())
        ORDER BY held.position LIMIT 1 FOR UPDATE`;
      const passes = [
        { skipped: false, waits: false },
        { skipped: false, waits: true },
        { skipped: true, waits: true },
      ];
      for (const [index, { skipped, waits }] of passes.entries()) {
        const first = candidate(queue, reviewer, skipped, waits);
        // coalesce asks the candidate only when the reviewer holds nothing.
        const target = index === 0 ? sql`coalesce((${held}), (${first}))` : sql`(${first})`;
        const taken = await leased(
          sql`UPDATE ${reviewItems} SET ${lease} WHERE id = ${target} ${returned}`,
          queue,
        );
        if (taken) return taken;
      }
      return undefined;
    },

    /** Gives up the reviewer's lease of an item; answers whether they held a live one. */
    async release(queueId: string, itemId: string, reviewer: string): Promise<boolean> {
      const released = await database.execute(sql`UPDATE ${reviewItems}
        SET ${leaseSet(leasesWithout(reviewer))},
          skipped_by = CASE WHEN ${reviewer}::text = ANY (skipped_by) THEN skipped_by
            ELSE array_append(skipped_by, ${reviewer}::text) END
        WHERE queue_id = ${queueId} AND id = ${itemId}
          AND EXISTS (SELECT 1 FROM jsonb_array_elements(leases) AS lease
            WHERE lease->>'reviewer' = ${reviewer} AND (lease->>'expires_at')::timestamptz > now())
        RETURNING id`);
      return rowsOf(released).length > 0;
    },

    /** Live leases of others than `reviewer` on a locked item (a lease-less review is checked against them). */
    liveLeasesOf(item: ItemRow, reviewer: string): number {
      const now = Date.now();
      return item.leases.filter(
        (lease) => lease.reviewer !== reviewer && new Date(lease.expires_at).getTime() > now,
      ).length;
    },
  };
}

export type LeaseRepository = ReturnType<typeof createLeaseRepository>;
